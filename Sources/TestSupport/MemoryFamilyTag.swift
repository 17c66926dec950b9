import NFCTags

/// A memory tag behind the family seam: every operation is one of its four commands, counted like a
/// real family counts its exchanges.
public final class MemoryFamilyTag: FamilyTag {
    let transceiver: any Transceiver
    public let family = "memory"
    public let identificationNote = ""
    public private(set) var chip: TagChip?
    public private(set) var cost = TagOperationCost(name: "memory")
    private var locked: Bool?

    init(_ transceiver: any Transceiver) { self.transceiver = transceiver }

    /// One exchange, counted.
    private func send(_ command: [UInt8]) throws(TransportError) -> [UInt8] {
        cost.exchanges += 1
        if command.first == 0xB2 || command.first == 0xB3 { cost.writes += 1 }
        return try transceiver.transceive(command, timeoutMilliseconds: 50)
    }

    /// `B0`: the chip answers `MEM` and its size in 256-byte units.
    public func identify() throws -> TagChip? {
        let answer = try send([0xB0])
        guard answer.starts(with: [0x4D, 0x45, 0x4D]) else { throw TagError(.wrongChip, "not a memory tag") }
        chip = MemoryFamily.chip
        return chip
    }

    /// Nothing to check: a memory tag can always be locked (`B3`).
    public func prepareWrite(hasCredentials: Bool, lock: Bool) throws {}

    public func identityAnomalies(anticollisionUID: [UInt8]) throws -> IdentityAnomalies { IdentityAnomalies() }

    /// `B1`: the lock flag tells the status; the capacity is the chip's.
    public func detectNDEF() throws -> (status: NDEFStatus, capacity: Int) {
        let answer = try send([0xB1])
        locked = answer.first == 1
        return (locked == true ? .readOnly : .readWrite, 256)
    }

    /// `B1`: the message after the flag and length bytes.
    public func readNDEF() throws -> [UInt8] {
        let answer = try send([0xB1])
        guard answer.count >= 2, answer.count == 2 + Int(answer[1]) else {
            throw TagError(.invalidResponse, "the read answer is \(answer.count) bytes")
        }
        return Array(answer.dropFirst(2))
    }

    /// `B2` with the whole message; a message already on the tag is not written again.
    public func writeNDEF(_ message: [UInt8]) throws -> NDEFWriteResult {
        if try readNDEF() == message {
            return NDEFWriteResult(pages: [0: message], writtenPages: [], skippedPages: [0])
        }
        _ = try send([0xB2] + message)
        return NDEFWriteResult(pages: [0: message], writtenPages: [0], skippedPages: [])
    }

    /// `B1` and a byte-exact compare.
    public func verify(_ written: NDEFWriteResult, ignoring mask: [Range<Int>]) throws {
        guard try readNDEF() == written.pages[0] else {
            throw TagError(.verifyMismatch, "the message reads back otherwise")
        }
    }

    /// `B3`, then `B1` to confirm the flag.
    public func writeLock() throws {
        _ = try send([0xB3])
        guard try detectNDEF().status == .readOnly else { throw TagError(.lockFailed, "the lock flag did not stick") }
    }

    public func lockReadBack() -> [(unit: Int, bytes: [UInt8])] { locked.map { [(0, [$0 ? 1 : 0])] } ?? [] }

    public func lockState() -> LockState? {
        locked.map { LockState(isPermanent: $0, fields: "lock flag \($0 ? 1 : 0)", openReasons: $0 ? [] : ["open"]) }
    }

    public func reactivate() throws { try transceiver.reactivate() }
}
