import NDEF
import NFCTags
import Provisioning
import TagEmulator
import TestSupport
import Testing

/// The tag pipeline on a Type 4 tag through the seam alone, scripted APDU by APDU: a write and its read-back,
/// a lock refused before anything is written, a lock the job vouches for, and a proprietary write access.
@Suite struct Type4PipelineTests {
    static func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }
    static let ok = hex("90 00")
    static let uid = hex("04 96 8C AA 5C 5E 80")
    static let activation = DetectedTag(uid: uid, atqa: 0x0344, sak: 0x20, ats: hex("06 77 77 71 02 80"))
    static let message = NDEFMessage(records: [NDEFPayload.uri("https://example.com/t4/1")]).bytes

    /// GetVersion of an NTAG 424 DNA (`docs/reference/type4.md` §2.3).
    static let getVersion424: [ScriptedTransceiver.Step] = [
        .exchange(hex("90 60 00 00 00"), hex("04 04 02 30 00 11 05 91 AF")),
        .exchange(hex("90 AF 00 00 00"), hex("04 04 02 01 02 11 05 91 AF")),
        .exchange(hex("90 AF 00 00 00"), hex("04 96 8C AA 5C 5E 80 CD 65 93 5D 40 21 18 91 00")),
    ]

    /// SELECT of the application and the CC, READ BINARY of `read` CC bytes answered `cc`, SELECT of E104, NLEN 0.
    static func detection(read: UInt8, cc: [UInt8]) -> [ScriptedTransceiver.Step] {
        [
            .exchange(hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"), ok), .exchange(hex("00 A4 00 0C 02 E1 03"), ok),
            .exchange(hex("00 B0 00 00") + [read], cc + ok), .exchange(hex("00 A4 00 0C 02 E1 04"), ok),
            .exchange(hex("00 B0 00 00 02"), hex("00 00") + ok),
        ]
    }

    static let cc424 =
        hex("00 17 20 01 00 00 FF 04 06 E1 04 01 00 00 00 05 06 E1 05 00 80 82 83") + Array(repeating: 0, count: 9)
    static let ccOpen = hex("00 0F 20 00 3B 00 34 04 06 E1 04 08 00 00 00")

    /// The tear-safe write of `message` on a fresh file (MLc ≥ its size) and its read-back.
    static var writeAndVerify: [ScriptedTransceiver.Step] {
        let length = UInt8(message.count)
        return [
            .exchange(hex("00 D6 00 02") + [length] + message, ok), .exchange(hex("00 D6 00 00 02 00") + [length], ok),
            .exchange(hex("00 B0 00 00") + [length + 2], [0, length] + message + ok),
        ]
    }

    static func plan(lock: Bool, accepted: Set<TagChip> = []) -> TagPipeline.Plan {
        TagPipeline.Plan(message: message, acceptedChips: accepted, lock: lock, uid: uid)
    }

    static func families(_ options: Type4Options = Type4Options()) -> TagFamilies {
        TagFamilies([Type2Family(), Type4Family(options: options)])
    }

    static func finished(_ script: ScriptedTransceiver) {
        #expect(script.mismatches.isEmpty, "\(script.mismatches)")
        #expect(script.remaining.isEmpty)
    }

    @Test func a424IsWrittenAndReadBackInElevenAPDUs() throws {
        let script = ScriptedTransceiver(
            Self.getVersion424 + Self.detection(read: 0x0F, cc: Array(Self.cc424.prefix(15))) + Self.writeAndVerify)
        let outcome = TagPipeline.run(
            Self.plan(lock: false, accepted: [Type4Family.ntag424]), on: script, activation: Self.activation,
            families: Self.families())
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        #expect(outcome.chip == Type4Family.ntag424 && outcome.family == "type4" && outcome.capacity == 254)
        #expect(outcome.exchanges == 11 && outcome.written?.writtenPages == [2, 0])
        #expect(outcome.phaseCosts[.identify]?.exchanges == 8 && outcome.phaseCosts[.write]?.writes == 2)
        Self.finished(script)
    }

    @Test func aLockOnA424UsesItsDeliveryK0AndAWriteIsRefusedAfterwards() throws {
        let emulator = try Type4Emulator(chip: .ntag424, uid: [0x04, 0x24, 0x1C, 0, 0, 0, 1])
        let plan = TagPipeline.Plan(message: Self.message, acceptedChips: [], lock: true, uid: emulator.uid)
        let outcome = TagPipeline.run(plan, on: EmulatorTransceiver(tag: emulator), activation: emulator.activate())
        #expect(outcome.failure == nil && outcome.locked, "\(String(describing: outcome.failure))")
        #expect(emulator.image[14] == 0xFF, "the CC's NDEF write byte")
        // A phone's write: the file refuses it (Write and ReadWrite never), so does a second lock's settings change.
        _ = emulator.activate()
        let phone = Type4Tag(transceiver: EmulatorTransceiver(tag: emulator))
        _ = try phone.detectNDEF()
        #expect(throws: StatusWordError.self) { try phone.updateBinary(offset: 0, [0x00, 0x00]) }
        let again = TagPipeline.run(plan, on: EmulatorTransceiver(tag: emulator), activation: emulator.activate())
        #expect(again.failure == nil && again.locked, "a resumed lock finds both changes made")
    }

    @Test func aLockOnA424WhoseK0WasChangedFailsNamingTheKeyedJob() throws {
        let emulator = try Type4Emulator(chip: .ntag424, uid: [0x04, 0x24, 0x1C, 0, 0, 0, 2])
        try emulator.setKey(0, to: [UInt8](repeating: 0x5A, count: 16), version: 1)
        let plan = TagPipeline.Plan(message: Self.message, acceptedChips: [], lock: true, uid: emulator.uid)
        let outcome = TagPipeline.run(plan, on: EmulatorTransceiver(tag: emulator), activation: emulator.activate())
        let failure = try #require(outcome.failure)
        #expect(failure.failureClass == .lockFailed && failure.detail.contains("refused its delivery K0"))
        #expect(emulator.image[14] == 0x00 && !outcome.locked)
    }

    @Test func aLockTheJobVouchesForIsSetAndProven() throws {
        let refused = [ScriptedTransceiver.Step.exchange(Self.hex("90 60 00 00 00"), Self.hex("6E 00"))]
        let lock: [ScriptedTransceiver.Step] = [
            .exchange(Self.hex("00 A4 00 0C 02 E1 03"), Self.ok), .exchange(Self.hex("00 D6 00 0E 01 FF"), Self.ok),
            .exchange(Self.hex("00 B0 00 00 0F"), Array(Self.ccOpen.dropLast()) + [0xFF] + Self.ok),
            .exchange(Self.hex("00 A4 00 0C 02 E1 04"), Self.ok),
            .exchange(Self.hex("00 D6 00 00 02 00") + [UInt8(Self.message.count)], Self.hex("69 82")),
        ]
        let script = ScriptedTransceiver(
            refused + Self.detection(read: 0x0F, cc: Self.ccOpen) + Self.writeAndVerify + lock)
        let outcome = TagPipeline.run(
            Self.plan(lock: true), on: script, activation: Self.activation,
            families: Self.families(Type4Options(honoursCCWriteByte: true)))
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        #expect(outcome.locked && outcome.chip == Type4Family.generic)
        #expect(outcome.lockReadBack.map(\.unit) == [7])
        #expect(outcome.lockReadBack.map(\.bytes) == [Self.hex("04 06 E1 04 08 00 00 FF")])
        Self.finished(script)
    }

    @Test func aProprietaryWriteAccessFailsAsReadOnlyWithItsReason() throws {
        let script = ScriptedTransceiver(
            Self.getVersion424 + Self.detection(read: 0x0F, cc: Array(Self.cc424[0..<14]) + [0x83]))
        let outcome = TagPipeline.run(
            Self.plan(lock: false), on: script, activation: Self.activation, families: Self.families())
        let failure = try #require(outcome.failure)
        #expect(failure.failureClass == .readOnly && !outcome.wroteSomething)
        #expect(failure.detail.contains("83h (proprietary procedure)") && failure.detail.contains("NTAG 424 DNA"))
        Self.finished(script)
    }
}
