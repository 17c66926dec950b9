import Crypto
import Foundation
import TestSupport
import Testing

/// `ConstantTime.equal` answers like `==`, and the MAC checks of tap URLs (SUN, NTAG21x `{{mac:…}}`) go through it
/// instead of comparing MACs with `==` (issue 44 item 4, finding 1).
@Suite struct ConstantTimeTests {
    @Test(
        arguments: [
            ([], [], true),
            ([0x01, 0x02, 0x03], [0x01, 0x02, 0x03], true),
            ([0x01, 0x02, 0x03], [0x00, 0x02, 0x03], false),
            ([0x01, 0x02, 0x03], [0x01, 0x02, 0x04], false),
            ([0x01, 0x02, 0x03], [0x01, 0x02], false),
            ([], [0x00], false),
        ] as [([UInt8], [UInt8], Bool)])
    func equalAnswersLikeEquality(a: [UInt8], b: [UInt8], equal: Bool) {
        #expect(ConstantTime.equal(a, b) == equal)
        #expect(ConstantTime.equal(b, a) == equal)
    }

    /// The files that check a tap's MAC, and the call each must make.
    static let checks = [
        "Sources/NFCTags/Type4/NTAG424/SUNCrypto.swift", "Sources/Provisioning/Auth/URLMAC.swift",
    ]

    /// Source lines that compare a computed MAC with `==` or `!=` (what the helper replaces).
    static func plainComparisons(in text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            let code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//") else { return false }
            let computesMAC = code.contains("sdmMAC(") || code.contains(".hmac(") || code.contains("render(key:")
            return computesMAC && (code.contains(" == ") || code.contains(" != "))
        }
    }

    @Test func everyTapMACCheckUsesTheHelper() throws {
        for path in Self.checks {
            let text = try String(
                contentsOf: Fixtures.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains("ConstantTime.equal("), "\(path) does not compare with ConstantTime.equal")
        }
        var found: [String] = []
        for folder in ["Sources/NFCTags", "Sources/Provisioning", "Sources/ProvisionCLI"] {
            let root = Fixtures.repositoryRoot.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = files?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let lines = Self.plainComparisons(in: try String(contentsOf: url, encoding: .utf8))
                found += lines.map { "\(url.lastPathComponent): \($0)" }
            }
        }
        #expect(found.isEmpty, "MACs compared with == or !=:\n\(found.joined(separator: "\n"))")
    }

    @Test func theScanFindsAPlantedComparison() {
        let planted = "        guard try SUNCrypto.sdmMAC(macKey: key, input: input) == tag else {"
        #expect(Self.plainComparisons(in: planted).count == 1)
    }
}
