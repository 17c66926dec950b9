import NDEF
import NFCTags
import TestSupport
import Testing

/// `Type3FamilyTag` against scripted FeliCa frames (`docs/reference/type3.md` §1.4): detection, the tear-safe write
/// order and the read-back, hex both ways.
@Suite struct Type3FamilyTagTests {
    static let idm = "0102030405060708"
    static let pmm = "00F1000000014300"
    static let activation = FeliCaActivation(idm: Hex.bytes(idm)!, pmm: Hex.bytes(pmm)!, systemCode: 0x88B4)

    static func step(_ command: String, _ answer: String) -> ScriptedTransceiver.Step {
        .exchange(Hex.bytes(command)!, Hex.bytes(answer)!)
    }

    /// Block 1 of the 8-byte URI message `D1 01 04 55 04 61 2E 62` (https://a.b), zero-padded.
    static let block1 = "D1010455 04612E62 00000000 00000000"

    /// Detection's Read of the attribute block and MC, then the tear-safe write of that message: the attribute
    /// block with WriteF `0F`, block 1, the attribute block with Ln 8 and WriteF `00`.
    static let detectAndWrite = [
        step(
            "12 06 \(idm) 01 0B00 02 8000 8088",
            "2D 07 \(idm) 00 00 02 10040100 0D000000 00000100 00000023 FFFFFF01 07000000 00000000 00000000"),
        step("20 08 \(idm) 01 0900 01 8000 10040100 0D000000 000F0100 00000032", "0C 09 \(idm) 00 00"),
        step("20 08 \(idm) 01 0900 01 8001 \(block1)", "0C 09 \(idm) 00 00"),
        step("20 08 \(idm) 01 0900 01 8000 10040100 0D000000 00000100 0008002B", "0C 09 \(idm) 00 00"),
    ]

    @Test func detectWriteAndVerifyInTheT3TOrder() throws {
        let message = Hex.bytes("D1 01 04 55 04 61 2E 62")!  // URI https://a.b, 8 bytes
        let script = ScriptedTransceiver(
            [Self.step("06 00 12 FC 01 00", "14 01 \(Self.idm) \(Self.pmm) 12 FC")] + Self.detectAndWrite + [
                Self.step(
                    "12 06 \(Self.idm) 01 0B00 02 8000 8001",
                    "2D 07 \(Self.idm) 00 00 02 10040100 0D000000 00000100 0008002B \(Self.block1)")
            ])
        let tag = Type3FamilyTag(Type3Tag(transceiver: script, activation: Self.activation))
        #expect(try tag.identify() == Type3Family.liteS)
        let detected = try tag.detectNDEF()
        #expect(detected.status == .readWrite && detected.capacity == 208)
        let result = try tag.writeNDEF(message)
        #expect(result.writtenPages == [0, 1, 0])
        try tag.verify(result, ignoring: [])
        #expect(script.mismatches.isEmpty, "\(script.mismatches)")
        #expect(tag.cost.exchanges == 6 && tag.cost.writes == 3)
    }

    @Test func aRefusedWriteIsReadOnlyAndNoNDEFSystemIsNotNDEF() throws {
        let script = ScriptedTransceiver([
            .fail(Hex.bytes("06 00 12 FC 01 00")!, .noAnswer)
        ])
        let tag = Type3FamilyTag(Type3Tag(transceiver: script, activation: Self.activation))
        #expect(try tag.queryNDEFStatus().status == .notSupported)
        let refusing = ScriptedTransceiver([
            Self.step(
                "20 08 \(Self.idm) 01 0900 01 8001 " + String(repeating: "00", count: 16), "0C 09 \(Self.idm) 01 A5")
        ])
        let other = Type3Tag(transceiver: refusing, activation: Self.activation)
        #expect(throws: FeliCaStatusError(flag1: 0x01, flag2: 0xA5)) {
            try other.write(blocks: [1], data: [UInt8](repeating: 0, count: 16))
        }
    }

    /// A tag found by Polling `12FC` with a lock to follow: no second Polling, the read-back reads the data
    /// blocks only, and the lock writes the attribute block whole (RWFlag `00`) and compares it read back.
    private func lockedWrite(attributeReadBack: String) -> (ScriptedTransceiver, Type3FamilyTag) {
        let block1 = Self.block1
        let script = ScriptedTransceiver(
            Self.detectAndWrite + [
                Self.step("10 06 \(Self.idm) 01 0B00 01 8001", "1D 07 \(Self.idm) 00 00 01 \(block1)"),
                Self.step(
                    "20 08 \(Self.idm) 01 0900 01 8000 10040100 0D000000 00000000 0008002A", "0C 09 \(Self.idm) 00 00"),
                Self.step(
                    "20 08 \(Self.idm) 01 0900 01 8088 FFFF0001 07010000 FF3FFF3F 00000000", "0C 09 \(Self.idm) 00 00"),
                Self.step(
                    "12 06 \(Self.idm) 01 0B00 02 8088 8000",
                    "2D 07 \(Self.idm) 00 00 02 FFFF0001 07010000 FF3FFF3F 00000000 \(attributeReadBack)"),
            ])
        var found = Self.activation
        found.systemCode = 0x12FC
        return (script, Type3FamilyTag(Type3Tag(transceiver: script, activation: found)))
    }

    @Test func aLockToFollowLeavesTheAttributeBlockToTheLocksReadBack() throws {
        let message = Hex.bytes("D1 01 04 55 04 61 2E 62")!
        let (script, tag) = lockedWrite(attributeReadBack: "10040100 0D000000 00000000 0008002A")
        try tag.identify()
        try tag.prepareWrite(hasCredentials: false, lock: true)
        _ = try tag.detectNDEF()
        try tag.verify(try tag.writeNDEF(message), ignoring: [])
        try tag.writeLock()
        #expect(script.mismatches.isEmpty, "\(script.mismatches)")
        #expect(tag.cost.exchanges == 8 && tag.lockState()?.isPermanent == true)
    }

    @Test func anAttributeBlockReadBackOtherThanWrittenFailsTheLock() throws {
        let (_, tag) = lockedWrite(attributeReadBack: "10040100 0D000000 00000000 0009002B")  // Ln 9, not 8
        try tag.identify()
        try tag.prepareWrite(hasCredentials: false, lock: true)
        _ = try tag.detectNDEF()
        try tag.verify(try tag.writeNDEF(Hex.bytes("D1 01 04 55 04 61 2E 62")!), ignoring: [])
        let error = #expect(throws: TagError.self) { try tag.writeLock() }
        #expect(error?.code == .lockFailed)
        let read = "10 04 01 00 0D 00 00 00 00 00 00 00 00 09 00 2B"
        let written = "10 04 01 00 0D 00 00 00 00 00 00 00 00 08 00 2A"
        #expect(error?.message == "attribute block reads \(read), written \(written)")
    }
}
