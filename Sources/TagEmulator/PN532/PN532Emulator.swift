import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A software PN532 on a pseudo-terminal that unmodified libnfc drives through its `pn532_uart`
/// driver (`docs/reference/pn532-libnfc.md` §8).
///
/// One I/O thread polls the pty master, the control socket and a wake-up pipe; replies are
/// scheduled on deadlines (the timing model) and never delay the loop (§8.6). The chip and its
/// field are touched only under `lock`, so tests can inspect them with `withChip`.
public final class PN532Emulator: @unchecked Sendable {
    // @unchecked: `chip`, `scheduled`, `stats` and the descriptors are used only on the I/O thread
    // or under `lock`; `pty` and the configuration are immutable after init.

    /// How replies are timed.
    public enum Timing: String, Sendable, Hashable {
        /// ACK and reply are written as soon as the command is complete.
        case instant
        /// UART byte time at `baud` (10 bits a byte) plus the tag's modelled airtime.
        case datasheet
    }

    /// Emulator settings.
    public struct Configuration: Sendable, Hashable {
        /// The timing model.
        public var timing: Timing
        /// The modelled UART speed.
        public var baud: Int
        /// The status InDataExchange returns for a tag NAK.
        public var nakStatus: UInt8
        /// A unix socket path for the control interface, if wanted.
        public var controlSocketPath: String?
        /// Whether the chip enforces the strict wake-up rules (`PN532Chip.strict`).
        public var strictPower: Bool
        /// Whether selects switch CRC handling back on, as a real PN532 does (`PN532Chip.selectSetsCRC`).
        public var selectSetsCRC: Bool
        /// Whether InSelect wakes a halted target (`PN532Chip.inSelectWakesHalted`).
        public var inSelectWakesHalted: Bool

        /// Creates settings.
        public init(
            timing: Timing = .instant, baud: Int = 115_200, nakStatus: UInt8 = 0x14, controlSocketPath: String? = nil,
            strictPower: Bool = true, selectSetsCRC: Bool = true, inSelectWakesHalted: Bool = true
        ) {
            self.selectSetsCRC = selectSetsCRC
            self.inSelectWakesHalted = inSelectWakesHalted
            self.timing = timing
            self.baud = baud
            self.nakStatus = nakStatus
            self.controlSocketPath = controlSocketPath
            self.strictPower = strictPower
        }
    }

    /// Counters reported by the control socket's `stats`.
    public struct Statistics: Sendable, Hashable {
        /// Information frames received from the host.
        public var frames = 0
        /// Frames dropped for a bad checksum.
        public var checksumErrors = 0
        /// Host ACK frames (aborts).
        public var hostAcks = 0
        /// Host NACK frames (resend requests).
        public var hostNacks = 0
        /// Frames refused (asleep, strict mode).
        public var refused = 0
        /// Replies written.
        public var replies = 0
        /// The modelled UART speed now (changed by SetSerialBaudRate).
        public var baud = 0
        /// Planned misbehaviours carried out.
        public var misbehaved = 0
        /// Modelled RF airtime of every tag exchange the chip carried out, in microseconds.
        public var airtimeMicroseconds = 0.0
        /// Modelled UART time of every byte received and written, in microseconds.
        public var uartMicroseconds = 0.0
    }

    /// The slave path the host opens (`/dev/pts/N`).
    public var slavePath: String { pty.slavePath }
    /// The configuration.
    public let configuration: Configuration

    let pty: PseudoTerminal
    let lock = NSLock()
    let chip: PN532Chip
    var decoder = PN532FrameDecoder()
    var scheduled: [(at: UInt64, bytes: [UInt8], cancellable: Bool)] = []
    var lastReply: [UInt8]?
    var pendingDeadline: UInt64?
    /// When the RF field last came on (monotonic ns), until the first activation after it has waited
    /// out the field guard (`RFTiming.fieldGuardMicroseconds`).
    var fieldOnAt: UInt64?
    var statistics = Statistics()
    /// The modelled UART speed now: `configuration.baud` until a SetSerialBaudRate takes effect.
    var baud: Int
    /// The speed a SetSerialBaudRate asked for; it takes effect once the host ACKs the reply.
    var pendingBaud: Int?
    var control: ControlServer?
    /// The reader's own misbehaviour (`--misbehave`), scheduled by tag UID and exchange.
    var misbehaviour: FaultSchedule<PN532Misbehaviour>?
    /// Host frames a NACK storm still swallows.
    var stormFramesLeft = 0
    /// Whether a `vanish` misbehaviour unplugged the reader.
    var vanished = false
    private let wakePipe: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)
    private var running = false

    /// Opens the pty and prepares the chip in front of `field`; call `start()` to serve.
    public init(field: any PN532TagField, configuration: Configuration = Configuration()) throws(PN532ControlError) {
        self.configuration = configuration
        pty = try PseudoTerminal()
        chip = PN532Chip(field: field)
        chip.nakStatus = configuration.nakStatus
        chip.strict = configuration.strictPower
        chip.selectSetsCRC = configuration.selectSetsCRC
        chip.inSelectWakesHalted = configuration.inSelectWakesHalted
        baud = configuration.baud
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw PN532ControlError("pipe failed") }
        wakePipe = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // never inherited by a process started meanwhile
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        if let path = configuration.controlSocketPath { control = try ControlServer(path: path) }
    }

    deinit {
        close(wakePipe.read)
        close(wakePipe.write)
    }

    /// Starts the I/O thread.
    public func start() {
        lock.withLock { running = true }
        let thread = Thread { [self] in
            runLoop()
            finished.signal()
        }
        thread.name = "pn532-emulator"
        thread.start()
    }

    /// Stops the I/O thread and waits for it; closes the control socket.
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { running = false }
            return running
        }
        guard wasRunning else {
            if hasVanished { control?.close() }
            return
        }
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
        finished.wait()
        control?.close()
    }

    /// Runs `body` with the chip (and through it the field) while the I/O thread is held off.
    public func withChip<R>(_ body: (PN532Chip) throws -> R) rethrows -> R {
        try lock.withLock { try body(chip) }
    }

    /// Sets the reader's misbehaviour plan (`PN532Misbehaviour`); entry `i` is for the tag whose UID
    /// `uid(i)` gives. Call before `start()`.
    public func misbehave(_ plan: FaultPlan<PN532Misbehaviour>, uid: (Int) -> [UInt8]) {
        lock.withLock { misbehaviour = plan.isEmpty ? nil : FaultSchedule(plan, uid: uid) }
    }

    /// Whether the reader vanished (a `vanish` misbehaviour closed the pty and ended the I/O loop).
    public var hasVanished: Bool { lock.withLock { vanished } }

    /// The counters so far.
    public var stats: Statistics {
        lock.withLock {
            var copy = statistics
            copy.checksumErrors = decoder.checksumErrors
            copy.refused = chip.refusedFrames
            copy.baud = baud
            copy.misbehaved = misbehaviour?.fired.count ?? 0
            return copy
        }
    }

    private var isRunning: Bool { lock.withLock { running } }

    /// Ends the I/O loop from inside it (`lock` held): the reader vanished.
    func endLoop() { running = false }

    private func runLoop() {
        while isRunning {
            var fds = [
                pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0),
            ]
            fds += control?.pollDescriptors ?? []
            // A nanosecond timeout: a reply leaves at its modelled instant, not at the next whole millisecond.
            PrecisePoll.wait(&fds, nanoseconds: lock.withLock { nextTimeoutNanoseconds() })
            if fds[0].revents != 0 { return }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let bytes = pty.readAvailable()
                lock.withLock { received(bytes) }
            } else if fds[1].revents & Int16(POLLHUP) != 0 {
                usleep(1_000)  // cannot happen while the slave is held open; avoid a busy loop
            }
            if let control {
                let ready = fds.dropFirst(2).filter { $0.revents != 0 }.map(\.fd)
                control.serve(ready: ready) { line in lock.withLock { controlCommand(line) } }
            }
            lock.withLock { flushDue() }
        }
    }
}
