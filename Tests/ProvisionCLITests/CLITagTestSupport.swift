import Foundation
import TestSupport
import Testing

/// A fresh tag store and a `sim:` spec over it, shared by the tag command tests.
struct SimStore {
    let directory: URL
    let uid: String
    let chip: String

    init(chip: String = "ntag215", uid: String = "04A1B2C3D4E5F6") throws {
        directory = try Fixtures.temporaryDirectory("tag-cli")
        self.uid = uid
        self.chip = chip
    }

    /// `sim:CHIP?store=DIR&uid=UID` plus extra options.
    func spec(_ extra: String = "") -> String {
        "sim:\(chip)?store=\(directory.path)&uid=\(uid)" + (extra.isEmpty ? "" : "&" + extra)
    }

    /// The stored image `DIR/<UID>.bin`.
    func image() throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent("\(uid).bin")))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Runs `provision` and parses its stdout as a JSON object.
func jsonOutput(_ arguments: [String]) throws -> [String: Any] {
    let outcome = try ProvisionProcess.run(arguments)
    #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
    return try #require(object as? [String: Any])
}

/// `object[a][b]…` for a key path of dictionary keys.
func value(_ object: [String: Any], _ path: String...) -> Any? {
    var current: Any? = object
    for key in path { current = (current as? [String: Any])?[key] }
    return current
}
