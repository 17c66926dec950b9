import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How a virtual card reaches vpcd and what it imitates.
public struct VPCDConfiguration: Sendable, Hashable {
    /// Where vpcd listens (its slot's port is `CHANNELID + slot`).
    public var host: String
    /// The slot's TCP port (35963 for the stock entry's first slot).
    public var port: UInt16
    /// The reader family imitated for raw commands.
    public var style: VPCDReaderStyle
    /// A Unix socket path for the control channel, if wanted.
    public var controlPath: String?
    /// Line mode: after the host used a tag and powered it off, the tag leaves and the next arrives.
    public var lineMode: Bool
    /// Delay between connection attempts while vpcd is not listening.
    public var retryMilliseconds: Int
    /// The card's own misbehaviour (`--misbehave`), by tag UID.
    public var misbehaviour: [[UInt8]: FaultPlan<VPCDMisbehaviour>.Entry] = [:]

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 35963, style: VPCDReaderStyle = .acr122u,
        controlPath: String? = nil, lineMode: Bool = false, retryMilliseconds: Int = 100
    ) {
        self.host = host
        self.port = port
        self.style = style
        self.controlPath = controlPath
        self.lineMode = lineMode
        self.retryMilliseconds = retryMilliseconds
    }
}

/// A running vpcd virtual card: one tag slot, served by its own thread.
///
/// Connecting to vpcd means "card inserted" and closing means "card removed" (`docs/reference/pcsc.md` §6), so
/// tag changes close and reopen the TCP connection. Control commands (the control socket, or
/// `command(_:)` in-process) are one line each:
///
/// ```
/// insert [UID hex]   put a tag in the field (a new UID, a known one, or the next of the population)
/// remove             take the tag out (closes the connection)
/// dump               memory image of the current tag
/// stats              counters (key=value)
/// feedback           LED/buzzer APDUs received, one hex line each
/// quit               stop the virtual card
/// ```
///
/// Each answer is zero or more text lines followed by `ok` or `error: <message>`.
///
/// `Sendable`: everything it holds is immutable or guarded by a `Mutex`; the card, the tag source and
/// the sockets live only on the card's thread.
public final class VPCDVirtualTag: Sendable {
    /// The configuration it runs with.
    public let configuration: VPCDConfiguration
    let shared: VPCDShared

    private init(configuration: VPCDConfiguration, shared: VPCDShared) {
        self.configuration = configuration
        self.shared = shared
    }

    /// Starts a virtual card on a new thread.
    ///
    /// - Parameters:
    ///   - configuration: where vpcd listens and what to imitate.
    ///   - makeSource: builds the tag source on the card's thread (tag models are not `Sendable`, so
    ///     they are created where they are used).
    /// - Returns: the running card.
    /// - Throws: `VPCDControlError` when the control socket cannot be created or `makeSource` fails.
    public static func start(
        _ configuration: VPCDConfiguration, makeSource: @escaping @Sendable () throws -> any VPCDTagSource
    ) throws -> VPCDVirtualTag {
        let shared = try VPCDShared()
        let controlFD: Int32?
        if let path = configuration.controlPath {
            controlFD = try VPCDSocket.listenUnix(path: path)
        } else {
            controlFD = nil
        }
        let started = DispatchSemaphore(value: 0)
        let startError = Mutex<String?>(nil)
        let thread = Thread {
            do {
                let loop = VPCDCardLoop(
                    configuration: configuration, source: try makeSource(), shared: shared, controlFD: controlFD)
                started.signal()
                loop.run()
            } catch {
                startError.withLock { $0 = "\(error)" }
                if let controlFD { close(controlFD) }
                started.signal()
            }
            shared.finish()
        }
        thread.name = "vpcd-\(configuration.port)"
        thread.start()
        started.wait()
        if let message = startError.withLock({ $0 }) { throw VPCDControlError("cannot create tags: \(message)") }
        return VPCDVirtualTag(configuration: configuration, shared: shared)
    }

    /// Runs one control command on the card's thread and returns its answer (ending `ok` or `error: …`).
    public func command(_ line: String) async -> String {
        await withCheckedContinuation { continuation in
            if !shared.enqueue(line, continuation) {
                continuation.resume(returning: "error: virtual card stopped\n")
            }
        }
    }

    /// Stops the card (closing its connection: the tag leaves) and waits for its thread to end.
    public func stop() async {
        _ = await command("quit")
        await shared.waitUntilFinished()
    }

    /// Waits until the card stops (a `quit` on the control socket, or `stop()`).
    public func waitUntilStopped() async {
        await shared.waitUntilFinished()
    }
}

/// State shared between the card's thread and its callers: queued commands and the wake-up pipe.
///
/// `@unchecked Sendable`: the pipe descriptors are immutable after `init` and writing one byte to a
/// pipe is thread-safe; everything mutable is inside `Mutex`es.
final class VPCDShared: @unchecked Sendable {
    typealias Request = (line: String, reply: CheckedContinuation<String, Never>)
    let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = Mutex<(requests: [Request], finished: Bool, waiters: [CheckedContinuation<Void, Never>])>(
        ([], false, []))

    init() throws(VPCDControlError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw VPCDControlError("cannot create wake-up pipe: \(VPCDSocket.errnoText())")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Queues a command; `false` when the card already stopped.
    func enqueue(_ line: String, _ reply: CheckedContinuation<String, Never>) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.requests.append((line, reply))
            return true
        }
        if accepted {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
        return accepted
    }

    /// Takes every queued command (card thread only) and empties the wake-up pipe.
    func takeRequests() -> [Request] {
        var sink = [UInt8](repeating: 0, count: 64)
        while sink.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
        return state.withLock { state in
            defer { state.requests.removeAll() }
            return state.requests
        }
    }

    /// Marks the card stopped, answers queued commands and wakes every waiter.
    func finish() {
        let (requests, waiters) = state.withLock { state in
            state.finished = true
            defer {
                state.requests.removeAll()
                state.waiters.removeAll()
            }
            return (state.requests, state.waiters)
        }
        for request in requests { request.reply.resume(returning: "ok\n") }
        for waiter in waiters { waiter.resume() }
    }

    func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.finished { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
