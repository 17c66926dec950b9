import Provisioning
import Testing

@Test func failureClassNamesAreTheDocumentedStableNames() {
    #expect(FailureClass.allCases.map(\.rawValue) == [
        "tagLost", "timeout", "nak", "notNDEF", "readOnly", "capacity", "wrongChip", "verifyMismatch",
        "lockFailed", "duplicateUID", "transport", "signatureInvalid", "protectFailed",
    ])
    #expect(Phase.allCases.map(\.rawValue) == ["detect", "identify", "write", "verify", "lock", "ledger", "removal"])
}
