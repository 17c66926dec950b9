import Foundation
import NDEF
import NFCTags
import Synchronization

/// One keyed memory tag (`KeyedMemoryFamily`): a message, two keys with versions, dynamic-message settings, a read
/// counter and a permanent lock, answering a made-up command set; shared with the test that looks at it afterwards.
///
/// Every answer starts with a status byte (`00` done, `AE` authentication refused, `9D` not permitted, `7E` bad
/// length). With a `file`, the state is saved atomically (temp file + rename) after every change, so a process
/// killed at any instant loses nothing the tag "holds".
///
/// ```
/// D0                    identify: 00 'K' 'M' 'M' 01 UID(7)
/// D1                    status: 00 locked capacity(2)                   (the counter does not move)
/// D2                    read: 00 length(2) message, windows filled       (the counter rises first, when configured)
/// D3 kn proof(8)        authenticate with key kn: proof = HMAC-SHA256(key, "kmem-auth" ‖ UID)[0..<8]
/// D4 message            write the message                                (K0 session, not locked)
/// D5 settings(8)        set the dynamic-message settings, counter to 0   (K0 session, not locked)
/// D6                    get settings: 00 settings(8)
/// D7 kn                 get key version: 00 version
/// D8 kn version key(16) change key kn                                    (K0 session; K0 ends the session)
/// D9                    lock for good                                    (K0 session)
/// ```
public final class KeyedMemoryTag: Sendable {
    /// What the tag holds (saved as JSON with a `file`).
    struct State: Codable, Equatable {
        var message: [UInt8] = []
        var keys: [[UInt8]] = KeyedMemoryFamily.deliveryKeys.map(\.bytes)
        var versions: [UInt8] = [0, 0]
        var settings: [UInt8] = KeyedMemorySettings.factory.encoded
        var counter: UInt32 = 0
        var locked = false
    }

    private struct Live {
        var state: State
        var session: UInt8?
        var tear: (code: UInt8, left: Int)?
        var commands: [UInt8] = []
    }

    /// The tag's UID.
    public let uid: [UInt8]
    /// The largest message it holds.
    public let capacity = 256
    /// Where the state is saved (`nil`: memory only).
    public let file: URL?
    private let live: Mutex<Live>

    /// A tag in delivery state (or as `file` last saved it).
    public init(uid: [UInt8], file: URL? = nil) {
        self.uid = uid
        self.file = file
        let saved = file.flatMap { try? Data(contentsOf: $0) }.flatMap {
            try? JSONDecoder().decode(State.self, from: $0)
        }
        live = Mutex(Live(state: saved ?? State()))
    }

    /// The message as written (windows as the job wrote them).
    public var message: [UInt8] { live.withLock { $0.state.message } }
    /// The keys' bytes and versions, K0 and K1.
    public var keys: [[UInt8]] { live.withLock { $0.state.keys } }
    /// The key versions, K0 and K1.
    public var versions: [UInt8] { live.withLock { $0.state.versions } }
    /// The read counter.
    public var counter: UInt32 { live.withLock { $0.state.counter } }
    /// Whether it is locked for good.
    public var isLocked: Bool { live.withLock { $0.state.locked } }
    /// The command codes received, in order.
    public var commands: [UInt8] { live.withLock { $0.commands } }

    /// Tears the link once: the `occurrence`th command with `code` from now takes effect on the tag, then the tag
    /// leaves the field before its answer (`TransportError.tagLost`).
    public func tear(afterCommand code: UInt8, occurrence: Int = 1) {
        live.withLock { $0.tear = (code, occurrence) }
    }

    /// Ends the authenticated session (the tag left the field or was selected again).
    public func endSession() { live.withLock { $0.session = nil } }

    /// Changes what the tag holds outside the protocol (a test's tampering), saved like any change.
    public func tamper(message: [UInt8]) {
        let state = live.withLock { live -> State in
            live.state.message = message
            return live.state
        }
        save(state)
    }

    /// Answers one command as the tag would.
    public func answer(_ command: [UInt8]) throws(TransportError) -> [UInt8] {
        let (reply, state, torn) = live.withLock { live -> ([UInt8], State?, Bool) in
            live.commands.append(command.first ?? 0)
            let before = live.state
            let reply = Self.answer(command, live: &live, uid: uid, capacity: capacity)
            var torn = false
            if let tear = live.tear, tear.code == command.first {
                live.tear = tear.left > 1 ? (tear.code, tear.left - 1) : nil
                torn = tear.left == 1
            }
            return (reply, live.state == before ? nil : live.state, torn)
        }
        if let state { save(state) }
        if torn { throw .tagLost }
        return reply
    }

    private func save(_ state: State) {
        guard let file, let data = try? JSONEncoder().encode(state) else { return }
        try? data.write(to: file, options: .atomic)
    }

    static let ok: UInt8 = 0x00, refused: UInt8 = 0xAE, notPermitted: UInt8 = 0x9D, badLength: UInt8 = 0x7E

    private static func answer(_ command: [UInt8], live: inout Live, uid: [UInt8], capacity: Int) -> [UInt8] {
        guard let code = command.first else { return [badLength] }
        let body = Array(command.dropFirst())
        let inK0Session = live.session == 0
        switch code {
        case 0xD0: return [ok] + Array("KMM".utf8) + [1] + uid
        case 0xD1: return [ok, live.state.locked ? 1 : 0, UInt8(capacity >> 8), UInt8(capacity & 0xFF)]
        case 0xD2:
            let settings = KeyedMemorySettings(live.state.settings)
            if settings?.isConfigured == true { live.state.counter &+= 1 }
            let keyBytes = live.state.keys[KeyedMemoryFamily.macKey]
            let shown = settings.map {
                $0.fill(live.state.message, uid: uid, counter: live.state.counter, macKey: keyBytes)
            }
            let message = shown ?? live.state.message
            return [ok, UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
        case 0xD3:
            guard body.count == 9, Int(body[0]) < live.state.keys.count else { return [badLength] }
            let key = SecretKey(id: "tag", bytes: live.state.keys[Int(body[0])])
            guard KeyedMemoryFamily.proof(key: key, uid: uid) == Array(body[1...]) else {
                live.session = nil
                return [refused]
            }
            live.session = body[0]
            return [ok]
        case 0xD4:
            guard inK0Session, !live.state.locked else { return [notPermitted] }
            guard body.count <= capacity else { return [badLength] }
            live.state.message = body
            return [ok]
        case 0xD5:
            guard inK0Session, !live.state.locked else { return [notPermitted] }
            guard KeyedMemorySettings(body) != nil else { return [badLength] }
            live.state.settings = body
            live.state.counter = 0
            return [ok]
        case 0xD6: return [ok] + live.state.settings
        case 0xD7:
            guard body.count == 1, Int(body[0]) < live.state.versions.count else { return [badLength] }
            return [ok, live.state.versions[Int(body[0])]]
        case 0xD8:
            guard inK0Session else { return [notPermitted] }
            guard body.count == 18, Int(body[0]) < live.state.keys.count else { return [badLength] }
            live.state.keys[Int(body[0])] = Array(body[2...])
            live.state.versions[Int(body[0])] = body[1]
            if body[0] == 0 { live.session = nil }
            return [ok]
        case 0xD9:
            guard inK0Session else { return [notPermitted] }
            live.state.locked = true
            return [ok]
        default: return [notPermitted]
        }
    }
}

/// The transceiver of a keyed memory tag in the field: selecting it again ends its session.
public final class KeyedMemoryTransceiver: Transceiver {
    let tag: KeyedMemoryTag
    let delayMilliseconds: Int

    /// The link to `tag`, each exchange taking `delayMilliseconds` (a modelled slow radio).
    public init(_ tag: KeyedMemoryTag, delayMilliseconds: Int = 0) {
        self.tag = tag
        self.delayMilliseconds = delayMilliseconds
    }

    public func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        if delayMilliseconds > 0 { usleep(useconds_t(delayMilliseconds * 1000)) }
        return try tag.answer(command)
    }

    public func reactivate() throws(TransportError) { tag.endSession() }
    public var modelledAirtimeMicroseconds: Double? { nil }
}
