import NFCTags
import TestSupport
import Testing

/// Adds a fixed modelled airtime per exchange to a script, like the emulator's transceiver does.
final class TimedTransceiver: Transceiver {
    let script: ScriptedTransceiver
    private(set) var airtime = 0.0

    init(_ script: ScriptedTransceiver) { self.script = script }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        airtime += 1_000
        return try script.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
    }

    func reactivate() throws(TransportError) {
        airtime += 5_000
        try script.reactivate()
    }

    var modelledAirtimeMicroseconds: Double? { airtime }
}

/// Per-operation accounting (`docs/reference/rf-timing.md` §4–§5).
@Suite struct Type2TagTests {
    @Test func everyOperationReportsExchangesAndAirtime() throws {
        let image = Images.factory(.ntag213)
        let script = ScriptedTransceiver(
            [.exchange([0x60], ChipModel.ntag213.version)] + Images.detectionSteps(image) + [
                .reactivation, .exchange([0x30, 0x10], Images.read(image, 0x10)),
            ])
        let transceiver = TimedTransceiver(script)
        let tag = Type2Tag(transceiver: transceiver)
        try tag.identify()
        try tag.detectNDEF()
        try tag.reactivate()
        _ = try tag.read(page: 0x10)
        #expect(tag.operations.map(\.name) == ["identify", "detect", "reactivate", "read"])
        #expect(tag.operations.map(\.exchanges) == [1, 2, 0, 1])
        #expect(tag.operations.map(\.airtimeMicroseconds) == [1_000, 2_000, 5_000, 1_000])
        #expect(tag.total.exchanges == 4 && tag.total.reactivations == 1)
        #expect(tag.total.airtimeMicroseconds == 9_000)
        expectScriptDone(script)
    }

    @Test func scriptedTransceiverHasNoAirtime() throws {
        let (transceiver, tag) = Images.tag(
            .ntag213, [.exchange([0x30, 0x00], Images.read(Images.factory(.ntag213), 0))])
        _ = try tag.read(page: 0)
        #expect(tag.operations.first?.airtimeMicroseconds == nil)
        #expect(tag.total.airtimeMicroseconds == nil)
        expectScriptDone(transceiver)
    }

    @Test func forgettingTheCacheReadsAgain() throws {
        let image = Images.factory(.ntag213)
        let (transceiver, tag) = Images.tag(.ntag213, Images.detectionSteps(image) + Images.detectionSteps(image))
        try tag.detectNDEF()
        tag.forgetCache()
        #expect(tag.area == nil)
        try tag.detectNDEF()
        expectScriptDone(transceiver)
    }
}

/// UID cross-checks (`docs/reference/type2.md` §2.2, §11).
@Suite struct Type2TagUIDTests {
    @Test func factoryPagesAreConsistent() throws {
        let image = Images.factory(.ntag213)
        let (transceiver, tag) = Images.tag(.ntag213, [.exchange([0x30, 0x00], Images.read(image, 0))])
        #expect(try tag.readUID() == Images.goldenUID)
        #expect(try tag.uidAnomalies(anticollisionUID: Images.goldenUID).isEmpty)
        #expect(Array(image[8..<12]) == [0xA9, 0x48, 0x00, 0x00])  // reference page 2
        expectScriptDone(transceiver)
    }

    @Test func cloneSignsAreReported() throws {
        var image = Images.factory(.ntag213, uid: [0x1D, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80])
        image[3] ^= 0x01
        image[9] = 0x00
        let (transceiver, tag) = Images.tag(.ntag213, [.exchange([0x30, 0x00], Images.read(image, 0))])
        let anomalies = try tag.uidAnomalies(anticollisionUID: Images.goldenUID)
        #expect(anomalies.count == 4)
        expectScriptDone(transceiver)
    }

    @Test func anomaliesNameFoundAndExpectedBytesAndReuseTheCachedPages() throws {
        var image = Images.factory(.ntag213)
        image[3] ^= 0x01  // BCC0
        image[8] ^= 0x01  // BCC1
        image[9] = 0x00  // INT
        let (transceiver, tag) = Images.tag(.ntag213, [.exchange([0x30, 0x00], Images.read(image, 0))])
        let other: [UInt8] = [0x04, 0x51, 0x7C, 0x00, 0x00, 0x00, 0x01]
        let anomalies = try tag.identityAnomalies(anticollisionUID: other)
        #expect(
            anomalies == [
                .bcc0(found: 0xA0, expected: 0xA1), .bcc1(found: 0xA8, expected: 0xA9), .internalByte(0x00),
                .uidDiffers(pages: Images.goldenUID, anticollision: other),
            ])
        #expect(
            anomalies.map(\.description) == [
                "BCC0 is A0, expected A1 (88 ^ UID0 ^ UID1 ^ UID2)",
                "BCC1 is A8, expected A9 (UID3 ^ UID4 ^ UID5 ^ UID6)",
                "internal byte is 00, not 48", "pages 0–1 hold UID 04517CE1ED2580, anticollision gave 04517C00000001",
            ])
        // A second check, and a check without an anticollision UID, send nothing: pages 0–2 are cached.
        #expect(try tag.identityAnomalies().count == 3)
        #expect(try tag.identityAnomalies(anticollisionUID: Images.goldenUID).count == 3)
        expectScriptDone(transceiver)
    }
}
