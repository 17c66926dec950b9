import NFCTags

/// A reader that presents memory tags one after the other (each until it is released), then reports
/// `.exhausted`: the second family's reader in the pipeline tests.
public actor MemoryTagReader: TagReader {
    public nonisolated let name: String
    public nonisolated let capabilities = ReaderCapabilities(rawCommands: true)
    private var queue: [MemoryTag]
    private var current: MemoryTag?

    /// A reader that will present `tags` in order.
    public init(name: String = "memory", tags: [MemoryTag]) {
        self.name = name
        self.queue = tags
    }

    public func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        if current == nil, !queue.isEmpty { current = queue.removeFirst() }
        guard let current else { return .exhausted }
        return .tag(DetectedTag(uid: current.uid, atqa: 0x0044, sak: MemoryFamily.sak))
    }

    public func withTransceiver<Result: Sendable>(
        _ body: @Sendable (any Transceiver) throws -> Result
    ) async throws -> Result {
        guard let current else { throw TransportError.tagLost }
        return try body(MemoryTransceiver(current))
    }

    public func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        current = nil
        return true
    }
}
