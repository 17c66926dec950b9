import NDEF
import NFCTags

/// A keyed memory tag behind the family seam: the NDEF operations a plain job would use, and its native commands
/// as the keyed capability (`keyed`) the scheme's plan runs on.
public final class KeyedMemoryFamilyTag: FamilyTag, KeyedTag {
    let transceiver: any Transceiver
    public let family = KeyedMemoryFamily.name
    public let identificationNote = ""
    public private(set) var chip: TagChip?
    public private(set) var cost = TagOperationCost(name: KeyedMemoryFamily.name)
    private var locked: Bool?
    /// The UID `identify()` read (the authentication proof covers it).
    public private(set) var uid: [UInt8]?

    init(_ transceiver: any Transceiver) { self.transceiver = transceiver }

    /// One exchange, counted; a status other than `00` is a `KeyedMemoryRefusal`.
    func send(_ command: [UInt8]) throws -> [UInt8] {
        cost.exchanges += 1
        if [0xD4, 0xD5, 0xD8, 0xD9].contains(command.first) { cost.writes += 1 }
        let answer = try transceiver.transceive(command, timeoutMilliseconds: 50)
        guard let status = answer.first else { throw TagError(.invalidResponse, "empty answer") }
        guard status == KeyedMemoryTag.ok else { throw KeyedMemoryRefusal(command: command[0], status: status) }
        return Array(answer.dropFirst())
    }

    @discardableResult public func identify() throws -> TagChip? {
        let answer = try send([0xD0])
        guard answer.starts(with: Array("KMM".utf8)), answer.count == 11 else {
            throw TagError(.wrongChip, "not a keyed memory tag")
        }
        uid = Array(answer.suffix(7))
        chip = KeyedMemoryFamily.chip
        return chip
    }

    public func prepareWrite(hasCredentials: Bool, lock: Bool) throws {}

    public func identityAnomalies(anticollisionUID: [UInt8]) throws -> IdentityAnomalies { IdentityAnomalies() }

    /// `D1`: the lock flag tells the status (the counter does not move).
    public func detectNDEF() throws -> (status: NDEFStatus, capacity: Int) {
        let answer = try send([0xD1])
        locked = answer.first == 1
        return (locked == true ? .readOnly : .readWrite, 256)
    }

    /// `D2`: what a phone reads (the counter rises when the dynamic message is configured).
    public func readNDEF() throws -> [UInt8] {
        let answer = try send([0xD2])
        guard answer.count >= 2, answer.count == 2 + (Int(answer[0]) << 8 | Int(answer[1])) else {
            throw TagError(.invalidResponse, "the read answer is \(answer.count) bytes")
        }
        return Array(answer.dropFirst(2))
    }

    /// A plain job cannot write a keyed memory tag: writing needs the K0 session of the keyed plan.
    public func writeNDEF(_ message: [UInt8]) throws -> NDEFWriteResult {
        throw TagError(.readOnly, "a KMEM-1 is written only by a keyed job")
    }

    public func verify(_ written: NDEFWriteResult, ignoring mask: [Range<Int>]) throws {
        guard try readNDEF() == written.pages[0] else {
            throw TagError(.verifyMismatch, "the message reads back otherwise")
        }
    }

    public func writeLock() throws { throw TagError(.lockFailed, "a KMEM-1 is locked only by a keyed job") }

    public func lockReadBack() -> [(unit: Int, bytes: [UInt8])] { locked.map { [(0, [$0 ? 1 : 0])] } ?? [] }

    public func lockState() -> LockState? {
        locked.map { LockState(isPermanent: $0, fields: "lock flag \($0 ? 1 : 0)", openReasons: $0 ? [] : ["open"]) }
    }

    public func reactivate() throws { try transceiver.reactivate() }

    public var keyed: (any KeyedTag)? { chip == nil ? nil : self }

    // MARK: native commands

    /// `D3`: authenticates with `key` as key `number`.
    func authenticate(_ number: Int, key: SecretKey) throws {
        if uid == nil { _ = try identify() }
        _ = try send([0xD3, UInt8(number)] + KeyedMemoryFamily.proof(key: key, uid: uid ?? []))
    }

    /// `D4`: writes the message (K0 session).
    func writeMessage(_ message: [UInt8]) throws { _ = try send([0xD4] + message) }

    /// `D5`: sets the settings (K0 session), resetting the counter.
    func setSettings(_ settings: [UInt8]) throws { _ = try send([0xD5] + settings) }

    /// `D6`: the settings.
    func settings() throws -> [UInt8] { try send([0xD6]) }

    /// `D7`: key `number`'s version.
    func keyVersion(_ number: Int) throws -> UInt8 {
        guard let version = try send([0xD7, UInt8(number)]).first else {
            throw TagError(.invalidResponse, "no key version")
        }
        return version
    }

    /// `D8`: changes key `number` to `key` with `version` (K0 session; changing K0 ends it).
    func changeKey(_ number: Int, to key: SecretKey, version: UInt8) throws {
        _ = try send([0xD8, UInt8(number), version] + key.bytes)
    }

    /// `D9`: locks the tag for good (K0 session).
    func lock() throws { _ = try send([0xD9]) }
}

/// A keyed memory tag's refusal: the command and its status byte.
public struct KeyedMemoryRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command code.
    public var command: UInt8
    /// The status: `AE` authentication refused, `9D` not permitted, `7E` bad length.
    public var status: UInt8

    /// Whether the tag refused an authentication.
    public var isAuthentication: Bool { status == KeyedMemoryTag.refused }

    public var description: String { "the KMEM-1 answered \(Hex.byte(status)) to \(Hex.byte(command))" }
}
