import NDEF
import NFCTags
import TestSupport
import Testing

/// The Type 4 read-only transition (`docs/reference/type4.md` §1.6): refused before any write where the chip does
/// not honour the CC write byte, and on a chip that does, set through the byte and proven by a refused probe.
@Suite struct Type4FamilyTagLockTests {
    private typealias V = Type4Vectors
    private let finished = Type4ChipModelTests.finished

    /// The lock of §1.6 on the open CC with NLEN `00 05`, the probe answered `probe`.
    private func lockScript(probe: String) -> [ScriptedTransceiver.Step] {
        V.getVersionRefused + V.detection(nlen: [0x00, 0x05]) + [
            .exchange(V.selectCC, V.ok),
            .exchange(V.hex("00 D6 00 0E 01 FF"), V.ok),
            .exchange(V.hex("00 B0 00 00 0F"), Array(V.ccOpen.dropLast()) + [0xFF] + V.ok),
            .exchange(V.selectNDEF, V.ok),
            .exchange(V.hex("00 D6 00 00 02 00 05"), V.hex(probe)),
        ]
    }

    @Test func aChipThatHonoursTheCCByteIsLockedAndProvenByARefusedProbe() throws {
        let script = ScriptedTransceiver(lockScript(probe: "69 82"))
        let tag = try V.identified(script, options: Type4Options(honoursCCWriteByte: true))
        try tag.prepareWrite(hasCredentials: false, lock: true)
        _ = try tag.detectNDEF()
        try tag.writeLock()
        #expect(tag.lockState()?.isPermanent == true)
        #expect(tag.lockReadBack().map(\.unit) == [7])
        #expect(tag.lockReadBack().first?.bytes == V.hex("04 06 E1 04 08 00 00 FF"))
        #expect(tag.cost.writes == 2, "the CC byte and the refused probe")
        finished(script)
    }

    @Test func anAcceptedProbeIsALockFailureSayingTheChipIgnoresTheByte() throws {
        let script = ScriptedTransceiver(lockScript(probe: "90 00"))
        let tag = try V.identified(script, options: Type4Options(honoursCCWriteByte: true))
        _ = try tag.detectNDEF()
        #expect {
            try tag.writeLock()
        } throws: { error in
            let error = error as? TagError
            return error?.code == .lockFailed && error?.message.contains("does not honour the CC write byte") == true
        }
        finished(script)
    }

    @Test func aLockWithoutDetectionFirstReadsTheCCAndNLENItself() throws {
        // `provision lock` (lock only): identify, then the lock, with no detection in between.
        let script = ScriptedTransceiver(
            V.getVersionRefused + [
                .exchange(V.selectApplication, V.ok), .exchange(V.selectCC, V.ok),
                .exchange(V.hex("00 B0 00 00 0F"), V.ccOpen + V.ok),
                .exchange(V.hex("00 D6 00 0E 01 FF"), V.ok),
                .exchange(V.hex("00 B0 00 00 0F"), Array(V.ccOpen.dropLast()) + [0xFF] + V.ok),
                .exchange(V.selectNDEF, V.ok), .exchange(V.hex("00 B0 00 00 02"), V.hex("00 07") + V.ok),
                .exchange(V.hex("00 D6 00 00 02 00 07"), V.hex("69 82")),
            ])
        let tag = try V.identified(script, options: Type4Options(honoursCCWriteByte: true))
        try tag.writeLock()
        #expect(tag.lockState()?.isPermanent == true)
        finished(script)
    }

    @Test func aProbeRefusedWithAnotherWordIsALockFailureToo() throws {
        let script = ScriptedTransceiver(lockScript(probe: "69 85"))
        let tag = try V.identified(script, options: Type4Options(honoursCCWriteByte: true))
        _ = try tag.detectNDEF()
        #expect(throws: TagError(.lockFailed, "")) { try tag.writeLock() }
        finished(script)
    }

    @Test func aCCAlreadyAtFFIsNotWrittenAgainButStillProbed() throws {
        let closed = Array(V.ccOpen.dropLast()) + [0xFF]
        let script = ScriptedTransceiver(
            V.getVersionRefused + V.detection(cc: closed, nlen: [0x00, 0x05]) + [
                .exchange(V.hex("00 D6 00 00 02 00 05"), V.hex("69 82"))
            ])
        let tag = try V.identified(script, options: Type4Options(honoursCCWriteByte: true))
        #expect(try tag.detectNDEF().status == .readOnly)
        try tag.writeLock()
        finished(script)
    }

    @Test func aNTAG424LockIsAcceptedBeforeWritingItsLockUsesTheDeliveryK0() throws {
        let script = ScriptedTransceiver(V.getVersion424)
        let tag = try V.identified(script)
        #expect(tag.lockMethod == .deliveryKey)
        try tag.prepareWrite(hasCredentials: false, lock: true)
        #expect(script.sent.count == 3, "GetVersion only: the check itself sends nothing")
        finished(script)
    }

    @Test func anUnknownChipsLockIsRefusedUnlessTheJobSaysItHonoursTheByte() throws {
        let script = ScriptedTransceiver(V.getVersionRefused)
        let tag = try V.identified(script)
        #expect {
            try tag.prepareWrite(hasCredentials: false, lock: true)
        } throws: { error in
            let error = error as? TagError
            return error?.code == .lockUnsupported
                && error?.message.contains("provision cannot tell whether this chip refuses writes once its CC says")
                    == true
        }
        tag.options.honoursCCWriteByte = true
        try tag.prepareWrite(hasCredentials: false, lock: true)
        #expect(tag.lockMethod == .ccWriteByte && tag.chipModel.lockMethod == .unknown)
        finished(script)
    }

    @Test func theOverrideOnA424StillNeedsTheCCFileToTakeTheByte() throws {
        let script = ScriptedTransceiver(
            V.getVersion424 + V.detection424(nlen: [0, 0]) + [
                .exchange(V.selectCC, V.ok), .exchange(V.hex("00 D6 00 0E 01 FF"), V.hex("69 82")),
            ])
        let tag = try V.identified(script, options: Type4Options(honoursCCWriteByte: true))
        try tag.prepareWrite(hasCredentials: false, lock: true)
        _ = try tag.detectNDEF()
        #expect(throws: TagError(.lockFailed, "")) { try tag.writeLock() }
        finished(script)
    }
}
