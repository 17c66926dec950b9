import NDEF
import NFCTags

/// A chip-exact FeliCa Lite-S (RC-S966, `docs/reference/type3.md` §1.5, §2.4), or with `standard` a FeliCa Standard
/// card with the NDEF system only (§1.7: system `12FC`, blocks 0–13 of services `000B`/`0009`, Read of up to 8 blocks,
/// Write of up to 4, Request Response `04`; no MC, so RWFlag is its only protection). The Lite-S: S_PAD0–13, REG
/// and the system blocks
/// behind services `000B` (read) and `0009` (write), MC-controlled write protection, Polling for `FFFF`,
/// `88B4` and (with SYS_OP bit 0) `12FC`. It answers Polling `00`, Read `06` and Write `08` only and stays
/// silent to anything else (Request Response `04` included) and to frames for another IDm.
///
/// Frames are LEN-prefixed FeliCa frames without CRC. Faults: an exchange is one frame, counted from 1; a tear
/// during a Write keeps the block's old or new content whole (seeded). The authentication blocks
/// (RC, MAC, CK, CKV, MAC_A, STATE) refuse writes with `refusedWriteStatus`: the MAC is not modelled.
public final class FeliCaEmulator: EmulatedTag {
    /// The IDm (8 bytes): also the UID the field and the store name the tag by.
    public let uid: [UInt8]
    /// Whether this is the FeliCa Standard card rather than a Lite-S.
    public let standard: Bool
    /// The PMm Polling reports (the Lite-S value of §1.1, or `standardPMm`).
    public let pmm: [UInt8]
    /// The FeliCa Standard card's PMm: IC type `01` and the timing bytes of a common Standard card (assumed, not
    /// from a data sheet): Read `49` (1 block: 4.8 ms bound), Write `93` (1 block: 33.8 ms bound).
    public static let standardPMm: [UInt8] = [0x03, 0x01, 0x4B, 0x02, 0x4F, 0x49, 0x93, 0xFF]
    /// The Standard card's blocks (attribute block and NmaxB 13) and its Nbr and Nbw.
    static let standardBlocks = Array(0...13), standardBlocksPerRead = 8, standardBlocksPerWrite = 4
    /// The unverified behaviours and assumed times.
    public let configuration: FeliCaEmulatorConfiguration
    /// The blocks, by number (16 bytes each); settable to shape a tag for a test.
    public var blocks: [Int: [UInt8]] = [:]
    public private(set) var faults: TagFaults
    public internal(set) var isPresent = true
    /// Frames so far, from 1 (the activation Polling excluded).
    public internal(set) var exchangeCount = 0
    public internal(set) var airtimeMicroseconds = 0.0
    public var onMemoryWritten: (() -> Void)?
    var rng: SplitMix64

    /// A Lite-S with IDm `idm`: NDEF-formatted (MC `FF FF FF 01 07 00…`, the empty attribute block), or with
    /// `faults.unformatted` fresh (SYS_OP `00`, S_PAD zero); `faults.preLocked` arrives locked.
    public init(
        idm: [UInt8], standard: Bool = false, configuration: FeliCaEmulatorConfiguration = .init(),
        faults: TagFaults = .init()
    ) {
        self.uid = idm
        self.standard = standard
        self.pmm = standard ? Self.standardPMm : FeliCaLiteS.pmm
        self.configuration = configuration
        self.faults = faults
        self.rng = SplitMix64(seed: faults.seed ^ idm.reduce(0) { $0 << 8 | UInt64($1) })
        if standard {
            for block in Self.standardBlocks { blocks[block] = [UInt8](repeating: 0, count: 16) }
            var attributes = Type3AttributeBlock(blocksPerRead: 8, blocksPerWrite: 4, maximumBlocks: 13)
            if faults.preLocked { attributes.rwFlag = 0 }
            if !faults.unformatted { blocks[0] = attributes.bytes }
            return
        }
        for block in FeliCaLiteS.blocks { blocks[block] = [UInt8](repeating: 0, count: 16) }
        blocks[FeliCaLiteS.dID] = idm + pmm
        blocks[FeliCaLiteS.id] = idm + [0x00, 0x00] + [UInt8](repeating: 0, count: 6)
        blocks[FeliCaLiteS.serC]![0] = 0x0B
        blocks[FeliCaLiteS.sysC]![0...1] = [0x88, 0xB4]
        var mc = FeliCaMemoryConfiguration.formatted
        if faults.unformatted {
            mc.bytes[3] = 0x00
        } else {
            var attributes = Type3AttributeBlock.liteSFormatted
            if faults.preLocked { attributes.rwFlag = 0 }
            blocks[0] = attributes.bytes
        }
        blocks[FeliCaLiteS.mc] = faults.preLocked ? mc.locked.bytes : mc.bytes
    }

    /// A Lite-S from its stored image (`image`'s layout).
    ///
    /// - Throws: `TagStoreError`-free `FeliCaImageError` when the image has the wrong size.
    public convenience init(
        image: [UInt8], idm: [UInt8], standard: Bool = false, configuration: FeliCaEmulatorConfiguration = .init(),
        faults: TagFaults = .init()
    ) throws {
        let numbers = standard ? Self.standardBlocks : FeliCaLiteS.blocks
        guard image.count == numbers.count * 16 else {
            throw TagError(.invalidArgument, "a FeliCa image has \(numbers.count * 16) bytes, not \(image.count)")
        }
        self.init(idm: idm, standard: standard, configuration: configuration, faults: faults)
        for (i, block) in numbers.enumerated() { blocks[block] = Array(image[16 * i..<16 * i + 16]) }
    }

    /// The IDm of the tag a population's 7-byte UID stands for: the Sony manufacturer code `01 2E` and the
    /// UID's last six bytes (an 8-byte UID is an IDm already).
    public static func idm(from uid: [UInt8]) -> [UInt8] { uid.count == 8 ? uid : [0x01, 0x2E] + uid.suffix(6) }

    /// Every block in `FeliCaLiteS.blocks` order, 16 bytes each.
    public static let imageSize = FeliCaLiteS.blocks.count * 16
    public var image: [UInt8] { (standard ? Self.standardBlocks : FeliCaLiteS.blocks).flatMap { blocks[$0]! } }
    public var tagChip: TagChip { standard ? Type3Family.standard : Type3Family.liteS }
    public var programmingMicroseconds: Double { configuration.writeMicroseconds }
    /// The MC block as it stands.
    public var memoryConfiguration: FeliCaMemoryConfiguration { FeliCaMemoryConfiguration(blocks[FeliCaLiteS.mc]!) }

    /// The reader's detection, as the libnfc reader polls: Polling `12FC` with RC `01` (the NDEF system, whose IDm
    /// the ledger records), then `FFFF` when no NDEF system answers (a card to format or to report).
    public func activate() -> DetectedTag? {
        guard
            let answer = activate(polling: FeliCaCommand.polling(systemCode: 0x12FC))
                ?? activate(polling: FeliCaCommand.polling(systemCode: 0xFFFF))
        else { return nil }
        return (try? FeliCaCommand.parsePolling(answer)).map { DetectedTag(felica: $0) }
    }

    /// The FeliCa air has no ISO/IEC 14443-A frames: raw frames are handled as FeliCa frames.
    public func receiveRaw(_ frame: [UInt8], lastByteBits: Int) -> TagAnswer { exchange(frame) }

    /// A FeliCa card has no HALT; the reader ends the session by polling again.
    public func halt() {}
    /// Nothing volatile is modelled (authentication state is not).
    public func fieldOff() {}

    public func remove() { isPresent = false }

    public func represent(faults newFaults: TagFaults) {
        faults = newFaults
        exchangeCount = 0
        isPresent = true
    }

    /// One frame: LEN must equal the frame length and the IDm must be this card's, else silence.
    public func exchange(_ command: [UInt8]) -> TagAnswer {
        guard isPresent, !command.isEmpty, Int(command[0]) == command.count, command.count >= 2 else {
            return .silence
        }
        exchangeCount += 1
        if faults.removedAfterExchanges.map({ exchangeCount > $0 }) ?? false {
            tear(command)
            return .silence
        }
        if faults.noAnswerExchanges.contains(exchangeCount) { return .silence }
        let answer = respond(to: command).map { TagAnswer.data($0) } ?? .silence
        return faults.answerFaults[exchangeCount].map { $0.apply(to: answer) } ?? answer
    }

    /// The tag leaves during `command`: a Write it carries puts its blocks' old or new content, whole.
    private func tear(_ command: [UInt8]) {
        isPresent = false
        if command[1] == 0x08, rng.next() & 1 == 0 { _ = respond(to: command) }
    }
}
