import Foundation
import NFCTags
import Support

/// The simulated reader backend (`sim:` specs): a `TagReader` over a `TagField` of emulated tags.
///
/// With `timing=datasheet`, `store=DIR` or `arrival=MS` it runs on its own serial queue (docs/style.md §4.2),
/// so its waits and file writes block only this reader. Otherwise nothing it does blocks, so it runs on
/// the cooperative pool (`InstantLane`): a worker's call then needs no thread
/// hop, which was two wake-ups a call, three calls a tag. `poll` brings the next tag of the population
/// in and activates it; `withTransceiver` lends an `EmulatorTransceiver` for the selected tag and, with
/// `store=DIR`, saves the tag's image once when the body returns if it changed (not after every page: the
/// host's session is over, and the ledger commits only after it); `release` sends the tag away after the
/// modelled removal time, and the next tag arrives at the next poll.
public actor SimulatedReader: TagReader {
    /// The reader's own queue (`nil` when nothing it does blocks: it runs on `lane` instead).
    private let executor: QueueExecutor?
    private let lane = InstantLane()
    private let field: TagField
    private var transceiver: EmulatorTransceiver?
    private var removalLeftMilliseconds: Int?
    /// When the next tag may arrive (`arrival=`), `nil` once it has.
    private var arrivesAt: ContinuousClock.Instant?

    /// The reader's settings.
    public nonisolated let options: SimulationOptions
    /// `sim:<chip>`.
    public nonisolated let name: String
    /// Every raw command passes (GET_VERSION, FAST_READ, READ_SIG, PWD_AUTH, READ_CNT).
    public nonisolated let capabilities = ReaderCapabilities(rawCommands: true)

    /// Runs the actor's jobs on the reader's own queue, or on the cooperative pool when nothing blocks.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor?.asUnownedSerialExecutor() ?? lane.unownedExecutor
    }

    /// A reader over a fresh field for `options`.
    public init(options: SimulationOptions) {
        self.options = options
        self.name = "sim:\(options.chipName)"
        let blocks = options.timing == .datasheet || options.storeDirectory != nil || options.arrivalMilliseconds > 0
        self.executor = blocks ? QueueExecutor(label: "provision.sim.\(options.chipName)") : nil
        self.field = TagField(options: options)
        field.savesEveryWrite = false
    }

    /// A reader for a `sim:` spec.
    ///
    /// - Throws: `ReaderSpecError` for a spec `SimulationOptions` rejects.
    public init(spec: ReaderSpec) throws(ReaderSpecError) {
        self.init(options: try SimulationOptions(spec: spec))
    }

    /// Modelled airtime of everything this reader has sent and received, microseconds.
    public var modelledAirtimeMicroseconds: Double { field.airtimeMicroseconds }

    /// Runs `body` with the field (control operations, inspection in tests) on the reader's queue.
    public func withField<Result: Sendable>(_ body: (TagField) throws -> Result) rethrows -> Result {
        try body(field)
    }

    /// Brings the next tag in if the field is empty and activates the current one.
    ///
    /// Returns at once; with `timing=datasheet` it waits the activation airtime, and the whole
    /// timeout when the field stays empty. Store failures surface as `TransportError.transport`.
    public func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        transceiver = nil
        if options.arrivalMilliseconds > 0, field.current == nil {
            let arrival = arrivesAt ?? ContinuousClock.now + .milliseconds(options.arrivalMilliseconds)
            let left = arrival - ContinuousClock.now
            if left > .zero {
                arrivesAt = arrival
                let waited = min(left, .milliseconds(max(timeoutMilliseconds, 0)))
                wait(microseconds: Double(waited.wholeMicroseconds))
                if waited < left { return .empty }
            }
            arrivesAt = nil
        }
        let state: FieldState
        let sent = AirtimeWait.now()
        let before = field.airtimeMicroseconds
        do {
            state = try field.poll()
        } catch {
            throw .transport(error.description)
        }
        if options.timing == .datasheet {
            AirtimeWait.wait(from: sent, microseconds: field.airtimeMicroseconds - before)
            if state == .empty { wait(microseconds: Double(max(timeoutMilliseconds, 0)) * 1000) }
        }
        if case .tag = state, let tag = field.current {
            transceiver = EmulatorTransceiver(tag: tag, waitsForAirtime: options.timing == .datasheet)
        }
        return state
    }

    /// Runs `body` with an `EmulatorTransceiver` for the tag selected by the last poll, then saves what it
    /// changed (`store=DIR`).
    ///
    /// - Throws: `TransportError.tagLost` when no tag is selected or it has left (a tear).
    public func withTransceiver<Result: Sendable>(
        _ body: @Sendable (any Transceiver) throws -> Result
    ) async throws -> Result {
        guard let transceiver, transceiver.tag.isPresent else { throw TransportError.tagLost }
        defer { field.saveChanges() }
        return try body(transceiver)
    }

    /// Halts the tag and lets the operator take it away after `removal=` ms (modelled; really waited
    /// with `timing=datasheet`). When that is longer than the timeout the tag stays (`false`) and the
    /// rest of the delay is carried to the next release; otherwise it leaves, its image is saved with
    /// `store=DIR`, and the next tag arrives at the next poll.
    public func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        transceiver = nil
        guard let tag = field.current else { return true }
        tag.halt()
        let left = removalLeftMilliseconds ?? options.removalMilliseconds
        let waited = min(left, max(timeoutMilliseconds, 0))
        if options.timing == .datasheet { wait(microseconds: Double(waited) * 1000) }
        guard waited >= left else {
            removalLeftMilliseconds = left - waited
            return false
        }
        removalLeftMilliseconds = nil
        arrivesAt = nil
        do {
            try field.removeCurrent()
        } catch {
            throw .transport(error.description)
        }
        return true
    }

    private func wait(microseconds: Double) {
        guard microseconds > 0 else { return }
        Thread.sleep(forTimeInterval: microseconds / 1_000_000)
    }
}

/// A default actor whose executor an instant `SimulatedReader` shares: the runtime switches a task onto
/// a default actor on the calling thread when it is free, where a queue executor always takes a hop.
private actor InstantLane {}
