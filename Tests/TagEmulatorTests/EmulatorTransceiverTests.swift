import NFCTags
import TagEmulator
import Testing

@Test func mapsAnswersToTransceiverContract() throws {
    let tag = try activeTag(.ntag213)
    let transceiver = EmulatorTransceiver(tag: tag)
    #expect(try transceiver.transceive([0x60], timeoutMilliseconds: 5) == ChipModel.ntag213.version)
    #expect(try transceiver.transceive([0xA2, 0x06, 1, 2, 3, 4], timeoutMilliseconds: 10) == [0x0A])
    #expect(throws: TransportError.nak(0x00)) {
        try transceiver.transceive([0xA2, 0x00, 1, 2, 3, 4], timeoutMilliseconds: 10)
    }
    #expect(throws: TransportError.noAnswer) { try transceiver.transceive([0x30, 0x00], timeoutMilliseconds: 5) }
    try transceiver.reactivate()
    #expect(try transceiver.transceive([0x30, 0x06], timeoutMilliseconds: 5).prefix(4) == [1, 2, 3, 4])
    #expect(transceiver.exchanges == 5)
    #expect((transceiver.modelledAirtimeMicroseconds ?? 0) > 4_100)
}

@Test func removedTagIsTagLost() throws {
    let tag = try activeTag(.ntag213)
    let transceiver = EmulatorTransceiver(tag: tag)
    tag.remove()
    #expect(throws: TransportError.tagLost) { try transceiver.transceive([0x30, 0x00], timeoutMilliseconds: 5) }
    #expect(throws: TransportError.tagLost) { try transceiver.reactivate() }
}

@Test func programmingLongerThanTimeoutIsSilence() throws {
    var configuration = EmulatorConfiguration()
    configuration.programmingMicroseconds = 12_000
    let tag = try activeTag(configuration: configuration)
    let transceiver = EmulatorTransceiver(tag: tag)
    #expect(throws: TransportError.noAnswer) {
        try transceiver.transceive([0xA2, 0x06, 9, 9, 9, 9], timeoutMilliseconds: 10)
    }
    #expect(tag.storedPage(6) == [9, 9, 9, 9])
}
