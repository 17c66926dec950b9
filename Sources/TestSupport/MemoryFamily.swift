import NFCTags
import Synchronization

/// A second tag family that lives in memory, for tests that prove the pipeline holds no Type 2 knowledge:
/// run, write, lock, audit and inspect must work on it through the `FamilyTag` seam alone.
///
/// Its tags answer a made-up command set (`B0` identify, `B1` read, `B2` write, `B3` lock) and are
/// announced with SAK `77h`, which no real family claims.
public struct MemoryFamily: TagFamily {
    /// The SAK the memory tags announce.
    public static let sak: UInt8 = 0x77
    /// The one chip of the family.
    public static let chip = TagChip(family: "memory", id: "mem256", displayName: "MEM-256")

    public let name = "memory"
    /// Announced by SAK, like an ISO/IEC 14443-A tag.
    public var transport: Transport { .iso14443A }

    /// Creates the family.
    public init() {}

    public func handles(_ activation: DetectedTag) -> Bool { activation.sak == Self.sak }

    public func open(_ transceiver: any Transceiver, activation: DetectedTag?) -> any FamilyTag {
        MemoryFamilyTag(transceiver)
    }
}

/// One memory tag: a message area of `capacity` bytes and a permanent lock; shared with the test that
/// looks at it afterwards.
public final class MemoryTag: Sendable {
    struct State {
        var message: [UInt8] = []
        var locked = false
        var writes = 0
    }
    private let state = Mutex(State())
    /// The tag's UID.
    public let uid: [UInt8]
    /// The largest message it holds.
    public let capacity: Int

    /// A blank tag.
    public init(uid: [UInt8], capacity: Int = 256) {
        self.uid = uid
        self.capacity = capacity
    }

    /// The message it holds.
    public var message: [UInt8] { state.withLock { $0.message } }
    /// Whether it is permanently locked.
    public var isLocked: Bool { state.withLock { $0.locked } }
    /// How many writes it accepted.
    public var writes: Int { state.withLock { $0.writes } }

    /// Answers one command as the tag would; refusals are `nak(0)`.
    public func answer(_ command: [UInt8]) throws(TransportError) -> [UInt8] {
        guard let code = command.first else { throw .nak(0) }
        switch code {
        case 0xB0: return [0x4D, 0x45, 0x4D, UInt8(capacity / 256)]
        case 0xB1: return state.withLock { [$0.locked ? 1 : 0, UInt8($0.message.count)] + $0.message }
        case 0xB2:
            let body = Array(command.dropFirst())
            return try state.withLock { stored throws(TransportError) -> [UInt8] in
                guard !stored.locked, body.count <= capacity else { throw .nak(0) }
                stored.message = body
                stored.writes += 1
                return [0x00]
            }
        case 0xB3:
            state.withLock { $0.locked = true }
            return [0x00]
        default: throw .nak(0)
        }
    }
}

/// The transceiver of a memory tag in the field.
public final class MemoryTransceiver: Transceiver {
    let tag: MemoryTag

    /// The link to `tag`.
    public init(_ tag: MemoryTag) { self.tag = tag }

    public func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        try tag.answer(command)
    }

    public func reactivate() throws(TransportError) {}
    public var modelledAirtimeMicroseconds: Double? { nil }
}
