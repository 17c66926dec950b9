import Foundation
import Provisioning
import Testing

@Test func failureClassNamesAreTheDocumentedStableNames() {
    #expect(
        FailureClass.allCases.map(\.rawValue) == [
            "tagLost", "timeout", "nak", "notNDEF", "readOnly", "capacity", "wrongChip", "verifyMismatch",
            "lockFailed", "duplicateUID", "transport", "signatureInvalid", "protectFailed",
            "identityMismatch", "lockUnsupported",
        ])
    #expect(Phase.allCases.map(\.rawValue) == ["detect", "identify", "write", "verify", "lock", "ledger", "removal"])
}

@Test func readmeListsEveryFailureClass() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md")
    let text = try String(contentsOf: readme, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
    let list = try #require(text.range(of: "Failure classes (stable names): ").map { String(text[$0.upperBound...]) })
    let listed = list.prefix { $0 != "." }.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(listed == FailureClass.allCases.map { "`\($0.rawValue)`" })
}
