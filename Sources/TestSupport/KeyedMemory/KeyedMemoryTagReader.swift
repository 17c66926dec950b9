import Foundation
import NDEF
import NFCTags

/// A reader that presents keyed memory tags one after the other (each until it is released), then reports
/// `.exhausted`; a tag listed twice is presented again (put back after it was taken away).
public actor KeyedMemoryTagReader: TagReader {
    public nonisolated let name: String
    public nonisolated let capabilities = ReaderCapabilities(rawCommands: true)
    private var queue: [KeyedMemoryTag]
    private var current: KeyedMemoryTag?
    /// Milliseconds each exchange takes (a slow radio, so a kill test's kills land mid-job).
    private let delayMilliseconds: Int

    /// A reader that will present `tags` in order.
    public init(name: String = "kmem", tags: [KeyedMemoryTag], delayMilliseconds: Int = 0) {
        self.name = name
        self.queue = tags
        self.delayMilliseconds = delayMilliseconds
    }

    /// The UID of the store's tag `index` (1-based): `0B 4B 4D 00 00` and the index.
    public static func uid(_ index: Int) -> [UInt8] {
        [0x0B, 0x4B, 0x4D, 0x00, 0x00, UInt8(index >> 8), UInt8(index & 0xFF)]
    }

    /// `count` tags whose state lives in `folder`, one file each (`<UID>.json`), as a `kmem:` reader spec names.
    public static func storedTags(in folder: URL, count: Int) -> [KeyedMemoryTag] {
        (0..<count).map { offset in
            let uid = uid(offset + 1)
            return KeyedMemoryTag(uid: uid, file: folder.appendingPathComponent("\(Hex.compact(uid)).json"))
        }
    }

    /// The reader a spec `kmem:DIR?count=N&delay=MS` names: `N` tags (default 1) whose state lives in the folder
    /// DIR (created if missing), each exchange taking `MS` milliseconds (default 0).
    ///
    /// - Throws: `ReaderSpecError` for a missing folder, a count that is not 1 to 65535, a delay that is not 0 to
    ///   1000, or an unknown option.
    public init(spec: ReaderSpec) throws {
        guard !spec.target.isEmpty else { throw ReaderSpecError(spec: spec.text, reason: "needs a folder: kmem:DIR") }
        if let unknown = spec.options.first(where: { $0.key != "count" && $0.key != "delay" }) {
            throw ReaderSpecError(spec: spec.text, reason: "unknown option '\(unknown.key)' (kmem takes count, delay)")
        }
        guard let delay = Int(spec.option("delay") ?? "0"), (0...1000).contains(delay) else {
            throw ReaderSpecError(spec: spec.text, reason: "delay must be 0 to 1000 (milliseconds)")
        }
        guard let count = Int(spec.option("count") ?? "1"), (1...0xFFFF).contains(count) else {
            throw ReaderSpecError(spec: spec.text, reason: "count must be 1 to 65535")
        }
        let folder = URL(fileURLWithPath: spec.target)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.init(name: spec.text, tags: Self.storedTags(in: folder, count: count), delayMilliseconds: delay)
    }

    public func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        if current == nil, !queue.isEmpty { current = queue.removeFirst() }
        guard let current else { return .exhausted }
        return .tag(DetectedTag(uid: current.uid, atqa: 0x0044, sak: KeyedMemoryFamily.sak))
    }

    public func withTransceiver<Result: Sendable>(
        _ body: @Sendable (any Transceiver) throws -> Result
    ) async throws -> Result {
        guard let current else { throw TransportError.tagLost }
        return try body(KeyedMemoryTransceiver(current, delayMilliseconds: delayMilliseconds))
    }

    public func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        current?.endSession()
        current = nil
        return true
    }
}
