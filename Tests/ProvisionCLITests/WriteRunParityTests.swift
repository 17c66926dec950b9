import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// Issue 23's must-hold: for the same message, UID and lock setting, `provision write [--lock]` and a
/// one-row `provision run` leave byte-identical tag memory (the whole stored image, every page).
@Suite struct WriteRunParityTests {
    static let uid = "04A1B2C3D4E5F6"

    @Test(arguments: ["ntag213", "ntag215", "ntag216"], [true, false])
    func writeAndOneRowRunLeaveIdenticalMemory(chip: String, lock: Bool) throws {
        let folder = try JobFolder(rows: 1, tag: chip, lock: lock)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(chip, uid: Self.uid), "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let ran = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(Self.uid).bin")))

        // The message the run wrote, as record JSON for `write`.
        let ccSize = Int(ran[14]) * 8
        let message = try NDEFMessage(bytes: try NDEFTLV.extractMessage(fromArea: Array(ran[16..<16 + ccSize])))
        let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString
        #expect(uri == "https://example.com/p/SKU-1/S00001?u=\(Self.uid)")
        let file = folder.url.appendingPathComponent("message.json")
        try RecordJSON.encode(message).write(to: file)

        let store = try SimStore(chip: chip, uid: Self.uid)
        defer { store.remove() }
        let write = try ProvisionProcess.run(
            ["write", "--reader", store.spec()] + (lock ? ["--lock"] : []) + [file.path])
        #expect(write.status == 0, "\(write.stderr)")
        let written = try store.image()

        #expect(ran.count == written.count)
        #expect((ran[15] == 0x0F) == lock, "CC3 read-only exactly when the job locks")
        let differing = ran.indices.filter { $0 < written.count && ran[$0] != written[$0] }
        let pages = Set(differing.map { $0 / 4 }).sorted()
        let shown = "run \(Self.pages(pages, of: ran)), write \(Self.pages(pages, of: written))"
        #expect(differing.isEmpty, "pages \(pages) differ: \(shown)")
    }

    /// The given pages of `image` as hex, for the failure message.
    static func pages(_ numbers: [Int], of image: [UInt8]) -> [String] {
        numbers.map { page -> String in Hex.string(Array(image[page * 4..<min(page * 4 + 4, image.count)])) }
    }
}
