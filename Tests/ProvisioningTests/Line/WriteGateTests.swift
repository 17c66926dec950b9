import Foundation
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

@testable import Ledger
@testable import Provisioning

/// Records, for every command, whether the claim was durable when it reached the tag.
private final class DurabilityProbe: Transceiver {
    let inner: any Transceiver
    let ticket: DurabilityTicket
    private(set) var sent: [(command: [UInt8], durable: Bool)] = []

    init(_ inner: any Transceiver, ticket: DurabilityTicket) {
        self.inner = inner
        self.ticket = ticket
    }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        sent.append((command, ticket.isComplete))
        return try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
    }

    func reactivate() throws(TransportError) { try inner.reactivate() }
    var modelledAirtimeMicroseconds: Double? { inner.modelledAirtimeMicroseconds }
}

/// A reader whose one tag is behind `transceiver`: the async pipeline's reader calls reach it in turn.
private actor OneTagReader: TagReader {
    nonisolated let name = "one-tag"
    nonisolated let capabilities = ReaderCapabilities(rawCommands: true)
    private nonisolated(unsafe) let transceiver: any Transceiver
    /// Runs once, when the first reader call (identify and detection) has returned.
    private var afterFirstCall: (@Sendable () -> Void)?

    /// The test reads `transceiver`'s log only after the pipeline's calls have returned.
    struct Handle: @unchecked Sendable { let transceiver: any Transceiver }

    init(_ handle: Handle, afterFirstCall: (@Sendable () -> Void)? = nil) {
        self.transceiver = handle.transceiver
        self.afterFirstCall = afterFirstCall
    }

    func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState { .exhausted }

    func withTransceiver<Result: Sendable>(_ body: @Sendable (any Transceiver) throws -> Result) async throws -> Result
    {
        let result = try body(transceiver)
        if let hook = afterFirstCall {
            afterFirstCall = nil
            hook()
        }
        return result
    }

    func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool { true }
}

private func factoryTag() throws -> EmulatorTransceiver {
    let tag = try NTAGEmulator(chip: .ntag215, uid: [0x04, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80])
    _ = try #require(tag.activate())
    return EmulatorTransceiver(tag: tag)
}

private let sixtyBytes = NDEFMessage(records: [NDEFPayload.uri("https://" + String(repeating: "a", count: 55))]).bytes

@Suite struct WriteGateTests {
    /// The claim's sync finishes only once identify and detection are done (an event, not a timer): the reads
    /// go out at once, no WRITE before it.
    @Test func noPageChangingCommandReachesTheTagBeforeTheClaimIsDurable() async throws {
        let ticket = DurabilityTicket()
        let probe = DurabilityProbe(try factoryTag(), ticket: ticket)
        let reader = OneTagReader(.init(transceiver: probe)) { ticket.complete(.success(())) }
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = try await TagPipeline.run(
            .init(message: sixtyBytes, acceptedChips: [.ntag215], lock: true, writeGate: WriteGate(ticket)),
            on: reader, activation: nil)
        let elapsed = (clock.now - start).components
        let total = Double(elapsed.seconds) * 1e6 + Double(elapsed.attoseconds) / 1e12
        #expect(outcome.failure == nil && outcome.locked && outcome.gateFailure == nil)
        let writes = probe.sent.filter { Type2CommandEffect.mayWrite($0.command) }
        #expect(writes.count == 17 + 3, "the message's WRITEs and the three lock WRITEs")
        #expect(writes.allSatisfy { $0.durable }, "every WRITE went out after the claim's sync")
        #expect(probe.sent.first?.command == [0x60], "identify did not wait: GET_VERSION first")
        #expect(outcome.exchanges == 3 + 17 + 2 + 6, "the gate adds no exchange")
        // The wait is the ledger's, not the tag's: no phase holds it.
        let phases = outcome.phaseMicroseconds.values.reduce(0, +)
        #expect(outcome.gateWaitMicroseconds > 0)
        #expect(phases + outcome.gateWaitMicroseconds <= total)
    }

    /// A sync that failed shuts the gate: the cycle ends before its first WRITE and says why.
    @Test func aFailedSyncWritesNothing() async throws {
        let failure = LedgerError(.sqlite, "disk I/O error while syncing the WAL", resultCode: .ioError)
        let tag = try factoryTag()
        let before = tag.tag.image
        let log = CommandLog(tag)
        let outcome = try await TagPipeline.run(
            .init(
                message: sixtyBytes, acceptedChips: [.ntag215], lock: true,
                writeGate: WriteGate(DurabilityTicket(completed: .failure(failure)))),
            on: OneTagReader(.init(transceiver: log)), activation: nil)
        #expect(outcome.gateFailure?.message == failure.message)
        #expect(outcome.failure != nil && !outcome.wroteSomething && !outcome.locked)
        #expect(log.writes.isEmpty)
        #expect(log.commands == [[0x60], [0x30, 0x82], [0x3A, 0x00, 0x04]], "identify and detection only")
        #expect(tag.tag.image == before)
    }

    /// Without a gate (a claim synced before it returned) the cycle is unchanged.
    @Test func aCycleWithoutAGateSendsTheSameCommands() async throws {
        let gated = CommandLog(try factoryTag())
        let plain = CommandLog(try factoryTag())
        _ = try await TagPipeline.run(
            .init(
                message: sixtyBytes, acceptedChips: [.ntag215], lock: true,
                writeGate: WriteGate(DurabilityTicket(completed: .success(())))),
            on: OneTagReader(.init(transceiver: gated)), activation: nil)
        let outcome = TagPipeline.run(.init(message: sixtyBytes, acceptedChips: [.ntag215], lock: true), on: plain)
        #expect(gated.commands == plain.commands)
        #expect(outcome.gateWaitMicroseconds == 0)
    }
}
