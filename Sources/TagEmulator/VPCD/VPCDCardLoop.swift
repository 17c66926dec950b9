import Foundation
import NDEF
import NFCTags

#if canImport(Glibc)
    import Glibc
#endif

/// The virtual card's event loop: one thread waiting in `poll(2)`.
///
/// It watches the vpcd connection, the wake-up pipe, the control socket and its clients, and never
/// sleeps.
///
/// Not `Sendable`: created on and confined to the card's thread.
final class VPCDCardLoop {
    private let configuration: VPCDConfiguration
    private let source: any VPCDTagSource
    private let shared: VPCDShared
    private let controlFD: Int32?
    private let card: VPCDCard
    private var vpcdFD: Int32 = -1
    private var decoder = VPCDFrameDecoder()
    private var clients: [Int32: [UInt8]] = [:]
    private var stopping = false
    private var connections = 0
    /// The card's planned misbehaviour.
    private let misbehaviour: FaultSchedule<VPCDMisbehaviour>
    /// A torn tag is put back only after this instant, so pcscd sees it leave first.
    private var holdUntil: ContinuousClock.Instant?
    /// How long a torn tag stays out in line mode: longer than pcscd's presence poll (400 ms), else
    /// pcscd misses the removal and refuses to connect to the returned tag.
    static let tornHoldOff: Duration = .milliseconds(1000)

    init(configuration: VPCDConfiguration, source: any VPCDTagSource, shared: VPCDShared, controlFD: Int32?) {
        self.configuration = configuration
        self.source = source
        self.shared = shared
        self.controlFD = controlFD
        card = VPCDCard(style: configuration.style)
        misbehaviour = FaultSchedule(byUID: configuration.misbehaviour)
        if let tag = source.current { card.insert(tag) }
    }

    func run() {
        while !stopping {
            if card.tag != nil, vpcdFD < 0, holdUntil.map({ ContinuousClock.now >= $0 }) ?? true {
                holdUntil = nil
                connect()
            }
            var fds = [pollfd(fd: shared.wakeRead, events: Int16(POLLIN), revents: 0)]
            if vpcdFD >= 0 { fds.append(pollfd(fd: vpcdFD, events: Int16(POLLIN), revents: 0)) }
            if let controlFD { fds.append(pollfd(fd: controlFD, events: Int16(POLLIN), revents: 0)) }
            for fd in clients.keys { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let waitForever = card.tag == nil || vpcdFD >= 0
            let ready = poll(&fds, nfds_t(fds.count), waitForever ? -1 : Int32(configuration.retryMilliseconds))
            if ready < 0, errno != EINTR { break }
            guard ready > 0 else { continue }
            for entry in fds where entry.revents != 0 {
                if entry.fd == shared.wakeRead {
                    for request in shared.takeRequests() { request.reply.resume(returning: execute(request.line)) }
                } else if entry.fd == vpcdFD {
                    serviceVPCD()
                } else if entry.fd == controlFD {
                    acceptClient()
                } else {
                    serviceClient(entry.fd)
                }
            }
        }
        disconnect()
        for fd in clients.keys { close(fd) }
        clients.removeAll()
        if let controlFD {
            close(controlFD)
            if let path = configuration.controlPath { unlink(path) }
        }
    }

    // MARK: vpcd link

    private func connect() {
        guard let fd = VPCDSocket.connect(host: configuration.host, port: configuration.port) else { return }
        vpcdFD = fd
        decoder = VPCDFrameDecoder()
        connections += 1
        card.enterField()
    }

    private func disconnect() {
        guard vpcdFD >= 0 else { return }
        close(vpcdFD)
        vpcdFD = -1
    }

    private func serviceVPCD() {
        let bytes = VPCDSocket.readAvailable(vpcdFD)
        guard !bytes.isEmpty else {
            // vpcd closed the link (pcscd stopped or dropped the card): connect again while a tag is in.
            disconnect()
            return
        }
        VPCDSocket.armQuickAck(vpcdFD)
        decoder.append(bytes)
        while vpcdFD >= 0, let payload = decoder.nextFrame() {
            guard let message = VPCDMessage(payload: payload) else { continue }
            let usedBeforePowerOff = message == .powerOff && card.apdusSinceInsert > 0
            let uid = card.tag?.uid
            if var reply = card.handle(message) {
                if case .apdu = message, let uid, let kind = misbehaviour.tick(uid: uid) {
                    // `hold`: the answer never comes; pcscd waits on it (vpcd has no timeout) until it goes away.
                    if kind == .hold { return }
                    guard let wrong = kind.apply(to: reply) else {
                        // `drop`: the link dies before the answer; the tag returns once pcscd saw it leave.
                        disconnect()
                        holdUntil = ContinuousClock.now + Self.tornHoldOff
                        return
                    }
                    guard !wrong.isEmpty else {
                        // `empty`: vpcd takes a zero-length frame as "card gone" and closes the link. Stay
                        // away as after a tear: back before pcscd saw the removal, every connect is refused.
                        _ = VPCDSocket.writeAll(vpcdFD, [0x00, 0x00])
                        disconnect()
                        holdUntil = ContinuousClock.now + Self.tornHoldOff
                        return
                    }
                    reply = wrong
                }
                guard let frame = VPCDFrameDecoder.encode(reply), VPCDSocket.writeAll(vpcdFD, frame) else {
                    disconnect()
                    return
                }
            }
            if card.tag != nil, source.currentHasLeft {
                // Torn away mid-exchange: the link closes (removal); in line mode the next tag comes.
                if configuration.lineMode {
                    nextTagInLine()
                    holdUntil = ContinuousClock.now + Self.tornHoldOff
                } else {
                    disconnect()
                    card.removeTag()
                    source.remove()
                }
            } else if configuration.lineMode, usedBeforePowerOff {
                nextTagInLine()
            }
        }
    }

    /// Line mode: the host is done with this tag; it leaves (close) and the next one arrives (connect).
    private func nextTagInLine() {
        disconnect()
        card.removeTag()
        if let next = source.advance() { card.insert(next) }
    }

    // MARK: control

    private func acceptClient() {
        guard let controlFD else { return }
        let fd = accept(controlFD, nil, nil)
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        clients[fd] = []
    }

    private func serviceClient(_ fd: Int32) {
        let bytes = VPCDSocket.readAvailable(fd)
        guard !bytes.isEmpty else {
            close(fd)
            clients[fd] = nil
            return
        }
        var buffer = (clients[fd] ?? []) + bytes
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            _ = VPCDSocket.writeAll(fd, Array(execute(line).utf8))
        }
        clients[fd] = buffer
    }

    /// Runs one control command; the answer ends with `ok` or `error: …`.
    func execute(_ line: String) -> String {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard let verb = words.first else { return "error: empty command\n" }
        switch verb {
        case "insert":
            var uid: [UInt8]?
            if words.count > 1 {
                guard let bytes = source.uidForm.bytes(words[1].filter { $0 != ":" }) else {
                    let form = source.uidForm
                    return "error: UID must be the \(form.name) of these tags, \(form), got '\(words[1])'\n"
                }
                uid = bytes
            }
            do {
                let tag = try source.insert(uid: uid)
                disconnect()
                card.insert(tag)
                return "inserted \(Hex.compact(tag.uid))\nok\n"
            } catch {
                return "error: \(error)\n"
            }
        case "remove":
            guard card.tag != nil else { return "error: no tag in the field\n" }
            disconnect()
            card.removeTag()
            source.remove()
            return "ok\n"
        case "dump":
            guard card.tag != nil else { return "error: no tag in the field\n" }
            let text = source.dump()
            return text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + "ok\n"
        case "stats":
            let uid = card.tag.map { Hex.compact($0.uid) } ?? "none"
            return card.statistics.line
                + " connections=\(connections) tag=\(uid) misbehaved=\(misbehaviour.fired.count)\nok\n"
        case "feedback":
            return card.feedbackLog.map { Hex.string($0) + "\n" }.joined() + "ok\n"
        case "quit":
            stopping = true
            return "ok\n"
        default:
            return "error: unknown command '\(verb)' (insert, remove, dump, stats, feedback, quit)\n"
        }
    }
}
