import Foundation
import NFCTags
import Support
import Synchronization

/// A PN53x reader driven through libnfc's initiator API, opened from a spec `nfc` (the first device
/// libnfc finds) or `nfc:<connstring>` (`nfc:pn532_uart:/dev/ttyUSB0`).
///
/// The device handle is owned by this actor, which runs on its own serial queue, so every blocking
/// libnfc call stays off the cooperative pool; task cancellation calls `nfc_abort_command`. The
/// device node is locked with `flock` while open. Type 2 commands go out as raw InCommunicateThru
/// frames with host-side CRC_A; an ISO-DEP tag's APDUs as InDataExchange (see `LibNFCTransceiver`).
public actor LibNFCReader: TagReader {
    private let executor = QueueExecutor(label: "libnfc")
    private var handle: LibNFCDevice?
    /// The next tag, selected by `release` while it looked for the previous one; `poll` hands it
    /// out without selecting it a second time.
    private var arrived: DetectedTag?

    /// The connstring the device was opened with.
    public nonisolated let connstring: String
    /// `nfc:<connstring>`.
    public nonisolated let name: String
    /// Host-link slack added to every tag timeout (spec option `slack=MS`).
    private let linkSlackMilliseconds: Int
    /// The UART speed asked for with spec option `baud=` (`pn532_uart` only), if any.
    private let requestedBaud: Int?
    /// The UART speed libnfc talks to the PN532 at (`nil`: libnfc's default, 115200).
    public private(set) var linkBaud: Int?
    /// libnfc passes any Type 2 command through.
    public nonisolated let capabilities = ReaderCapabilities(rawCommands: true)

    /// The actor's own serial queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(connstring: String, linkSlackMilliseconds: Int, baud: Int?) {
        self.connstring = connstring
        self.linkSlackMilliseconds = linkSlackMilliseconds
        requestedBaud = baud
        name = "nfc:" + connstring
    }

    /// Opens the reader a spec names: lock, `nfc_open`, a first real command (field off), init,
    /// infinite select off.
    ///
    /// - Parameter verbose: let libnfc log (`LIBNFC_LOG_LEVEL` 2) unless the environment sets it;
    ///   only the first open or `listDevices` of a process decides.
    /// - Throws: `LibNFCError` (`badSpec`, `noDevice`, `deviceBusy`, `openFailed`, `notResponding`).
    public static func open(spec: ReaderSpec, verbose: Bool = false) async throws -> LibNFCReader {
        guard spec.scheme == "nfc" else {
            throw LibNFCError(.badSpec, "'\(spec)' is not an nfc reader spec (nfc or nfc:<connstring>)")
        }
        configureLogging(verbose: verbose)
        var connstring = spec.target
        if connstring.isEmpty {
            guard let first = listDevices().first else {
                throw LibNFCError(.noDevice, "libnfc found no reader; name one with nfc:<connstring>")
            }
            connstring = first
        }
        var slack = 50
        if let text = spec.option("slack") {
            guard let value = Int(text), (0...5_000).contains(value) else {
                throw LibNFCError(.badSpec, "reader '\(spec)': slack must be milliseconds in 0...5000, got '\(text)'")
            }
            slack = value
        }
        var baud: Int?
        if let text = spec.option("baud") {
            guard connstring.hasPrefix("pn532_uart:"), connstring.split(separator: ":").count == 2 else {
                throw LibNFCError(
                    .badSpec, "reader '\(spec)': baud= needs a pn532_uart:<port> connstring without a speed")
            }
            guard let value = Int(text), PN532BaudSwitch.speeds.contains(value) else {
                let speeds = PN532BaudSwitch.speeds.map(String.init).joined(separator: ", ")
                throw LibNFCError(.badSpec, "reader '\(spec)': baud must be one of \(speeds), got '\(text)'")
            }
            baud = value
        }
        let reader = LibNFCReader(connstring: connstring, linkSlackMilliseconds: slack, baud: baud)
        try await reader.connect()
        return reader
    }

    /// The connstrings of every device libnfc can see (no intrusive scan).
    ///
    /// The corresponding C function is `nfc_list_devices`.
    public static func listDevices() -> [String] {
        configureLogging(verbose: false)
        guard let context = LibNFCCalls.initContext() else { return [] }
        defer { LibNFCCalls.exit(context) }
        return LibNFCCalls.listDevices(context)
    }

    /// Sets `LIBNFC_LOG_LEVEL` (0, or 2 when verbose) unless the environment already has it. Done
    /// once per process, before the first `nfc_init`: `setenv` must not race libnfc's `getenv`.
    private static func configureLogging(verbose: Bool) {
        logLevelSet.withLock { done in
            guard !done else { return }
            done = true
            if ProcessInfo.processInfo.environment["LIBNFC_LOG_LEVEL"] == nil {
                setenv("LIBNFC_LOG_LEVEL", verbose ? "2" : "0", 1)
            }
        }
    }

    private static let logLevelSet = Mutex(false)

    private func connect() throws(LibNFCError) {
        let lock = try DeviceLock(connstring: connstring)
        guard let context = LibNFCCalls.initContext() else {
            throw LibNFCError(.noDevice, "libnfc cannot create a context")
        }
        guard let device = openDevice(context) else {
            LibNFCCalls.exit(context)
            throw LibNFCError(.openFailed, "libnfc cannot open '\(connstring)'")
        }
        let opened = LibNFCDevice(
            context: context, device: device, lock: lock, port: DevicePort(connstring: connstring))
        opened.linkSlackMilliseconds = linkSlackMilliseconds
        // nfc_open can succeed on a half-working device (pitfall 6): check a real command first.
        let check = LibNFCCalls.setProperty(device, .activateField, false)
        guard check >= 0 else {
            throw LibNFCError(.notResponding, "'\(connstring)' opened but did not answer", cause: opened.status(check))
        }
        let initialised = LibNFCCalls.initiatorInit(device)
        guard initialised >= 0 else {
            throw LibNFCError(.notResponding, "'\(connstring)' did not initialise", cause: opened.status(initialised))
        }
        let finite = LibNFCCalls.setProperty(device, .infiniteSelect, false)
        guard finite >= 0 else {
            throw LibNFCError(.notResponding, "'\(connstring)' refused finite select", cause: opened.status(finite))
        }
        handle = opened
    }

    /// `nfc_open` at the speed spec option `baud=` asks for: the PN532 is switched from 115200 first
    /// (`PN532BaudSwitch`); a chip that does not answer at 115200 may still run at that speed from an
    /// earlier session, so libnfc tries it; failing both, the port opens at 115200.
    private func openDevice(_ context: NFCContextPointer) -> NFCDevicePointer? {
        guard let baud = requestedBaud, baud != 115_200 else { return LibNFCCalls.open(context, connstring) }
        let port = String(connstring.dropFirst("pn532_uart:".count))
        let switched = PN532BaudSwitch.raise(port: port, to: baud)
        if let device = LibNFCCalls.open(context, connstring + ":\(baud)") {
            if LibNFCCalls.setProperty(device, .activateField, false) >= 0 {
                linkBaud = baud
                return device
            }
            LibNFCCalls.close(device)
        }
        return switched ? nil : LibNFCCalls.open(context, connstring)
    }

    /// Opens the device again at the same connstring after it went away (a serial adapter plugged back, an
    /// emulator started again behind the same path): the old handle is closed and the open runs as at start.
    ///
    /// - Throws: `.readerGone` while the device cannot be opened or does not answer.
    public func reopen() async throws(TransportError) {
        close()
        arrived = nil
        do {
            try connect()
        } catch {
            close()
            throw .readerGone("\(name): \(error.message)")
        }
    }

    /// Releases the device: InRelease, field off, PowerDown, unlock. Later calls fail with `.transport`.
    public func close() {
        handle?.close()
        handle = nil
    }

    private func device() throws(TransportError) -> LibNFCDevice {
        guard let handle else { throw .transport("reader \(name) is closed") }
        return handle
    }

    /// Runs a blocking libnfc call with cancellation routed to `nfc_abort_command`.
    private func abortable<T>(_ device: LibNFCDevice, _ body: () throws(TransportError) -> T)
        async throws(TransportError) -> T
    {
        let abort = AbortHandle(device: device.device)
        let result: Result<T, TransportError> = await withTaskCancellationHandler {
            do throws(TransportError) { return .success(try body()) } catch { return .failure(error) }
        } onCancel: {
            abort.abort()
        }
        return try result.get()
    }

    /// Selects a tag (InListPassiveTarget, finite retries) every 25 ms until one answers or the time
    /// is up; returns `.empty` on timeout or cancellation. A tag that `release` already selected
    /// (the next one, seen while checking that the last one left) is returned as it is, still
    /// selected. One PN532 select reports one tag, so `.multipleTags` is never returned.
    public func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        let device = try device()
        if let tag = arrived {
            arrived = nil
            if device.selectedUID == tag.uid { return .tag(tag) }
        }
        let deadline = ContinuousClock.now + .milliseconds(max(timeoutMilliseconds, 0))
        while true {
            if let tag = try await abortable(device, { () throws(TransportError) in try device.select() }) {
                return .tag(tag)
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, !Task.isCancelled else { return .empty }
            try? await Task.sleep(for: min(remaining, .milliseconds(25)))
        }
    }

    /// Runs `body` on this actor's queue with a `LibNFCTransceiver` for the selected tag;
    /// cancellation aborts the blocking libnfc call (`nfc_abort_command`).
    public func withTransceiver<Result: Sendable>(
        _ body: @Sendable (any Transceiver) throws -> Result
    ) async throws -> Result {
        let device = try device()
        guard device.selectedUID != nil else { throw TransportError.tagLost }
        let abort = AbortHandle(device: device.device)
        let transceiver = LibNFCTransceiver(device: device)
        return try await withTaskCancellationHandler {
            try body(transceiver)
        } onCancel: {
            abort.abort()
        }
    }

    /// InDeselect (HLTA), then until the time is up: field off/on and a select; the tag is gone
    /// when nothing or a different UID answers. A different tag stays selected for the next `poll`.
    /// A FeliCa card has no HALT and answers every Polling while in the field: no field cycle for it.
    public func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        let device = try device()
        arrived = nil
        guard let uid = device.selectedUID else { return true }
        let felica = device.selectedFeliCa
        try device.deselect()
        let deadline = ContinuousClock.now + .milliseconds(max(timeoutMilliseconds, 0))
        while true {
            if !felica { try device.cycleField() }
            let seen = try await abortable(device, { () throws(TransportError) in try device.select() })
            guard let seen, seen.uid == uid else {
                arrived = seen
                return true
            }
            try device.deselect()
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, !Task.isCancelled else { return false }
            try? await Task.sleep(for: min(remaining, .milliseconds(50)))
        }
    }
}

/// Carries the device pointer to a cancellation handler.
///
/// `@unchecked Sendable`: `nfc_abort_command` is the one libnfc call designed to run on another
/// thread while a call on the owning queue blocks; nothing else is done with the pointer.
struct AbortHandle: @unchecked Sendable {
    let device: NFCDevicePointer
    func abort() { _ = LibNFCCalls.abort(device) }
}
