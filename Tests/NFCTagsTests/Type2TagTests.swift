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

/// Per-operation accounting (`line-timing.md` §4–§5).
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
        let (transceiver, tag) = Images.tag(.ntag213, [.exchange([0x30, 0x00], Images.read(Images.factory(.ntag213), 0))])
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
