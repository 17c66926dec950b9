import NFCTags
import TestSupport
import Testing

/// Single commands (`docs/reference/type2.md` §3, §10 "Commands").
@Suite struct Type2TagCommandsTests {
    @Test func readOfPage256SendsThirtyZero() throws {
        let image = Images.factory(.ntag213)
        let (transceiver, tag) = Images.tag(.ntag213, [.exchange([0x30, 0x00], Images.read(image, 0))])
        let answer = try tag.read(page: 256)
        #expect(answer == Array(image[0..<16]))
        #expect(transceiver.sent == [[0x30, 0x00]])
        expectScriptDone(transceiver)
    }

    @Test func readRollsOverAndCachesOnlyRealPages() throws {
        let image = Images.factory(.ntag213)
        let (transceiver, tag) = Images.tag(.ntag213, [.exchange([0x30, 0x2A], Images.read(image, 0x2A))])
        _ = try tag.read(page: 0x2A)
        #expect(tag.cachedPage(0) == Array(image[0..<4]))
        #expect(tag.cachedPage(0x2C) == [0, 0, 0, 0])
        expectScriptDone(transceiver)
    }

    @Test(arguments: [[UInt8](repeating: 0, count: 15), [UInt8](repeating: 0, count: 17), [0x0A]])
    func oddLengthReadAnswerIsInvalidResponse(answer: [UInt8]) {
        let (transceiver, tag) = Images.tag(.ntag213, [.exchange([0x30, 0x04], answer)])
        #expect(type2Code { _ = try tag.read(page: 4) } == .invalidResponse)
        expectScriptDone(transceiver)
    }

    @Test func nakToReadReactivatesThenReportsTheNak() {
        let (transceiver, tag) = Images.tag(.ntag213, [.fail([0x30, 0x40], .nak(0)), .reactivation])
        #expect(throws: TransportError.nak(0)) { try tag.read(page: 0x40) }
        #expect(transceiver.sent == [[0x30, 0x40], []])
        #expect(tag.total.reactivations == 1)
        expectScriptDone(transceiver)
    }

    @Test func nakToReadWithTheTagGoneIsTagLost() {
        let (transceiver, tag) = Images.tag(
            .ntag213, [.fail([0x30, 0x40], .nak(0)), .init(expect: [], answer: .failure(.tagLost))])
        #expect(throws: TransportError.tagLost) { try tag.read(page: 0x40) }
        expectScriptDone(transceiver)
    }

    @Test(arguments: [[UInt8](), [1, 2, 3], [1, 2, 3, 4, 5]])
    func writeWithDataOtherThanFourBytesIsRejectedBeforeSending(data: [UInt8]) {
        let (transceiver, tag) = Images.tag(.ntag213, [])
        #expect(type2Code { try tag.write(page: 4, data: data) } == .invalidArgument)
        #expect(transceiver.sent.isEmpty)
    }

    @Test(arguments: [[UInt8(0x0B)], [0x00, 0x0A], [0x00]])
    func writeAnswerOtherThanAckIsAFailure(answer: [UInt8]) {
        let (transceiver, tag) = Images.tag(.ntag213, [.exchange([0xA2, 0x04, 1, 2, 3, 4], answer)])
        #expect(type2Code { try tag.write(page: 4, data: [1, 2, 3, 4]) } == .invalidResponse)
        #expect(tag.cachedPage(4) == nil)
        expectScriptDone(transceiver)
    }

    @Test func nakToWriteReactivates() {
        let (transceiver, tag) = Images.tag(.ntag213, [.fail([0xA2, 0x04, 1, 2, 3, 4], .nak(5)), .reactivation])
        #expect(throws: TransportError.nak(5)) { try tag.write(page: 4, data: [1, 2, 3, 4]) }
        expectScriptDone(transceiver)
    }

    @Test func fastReadIsChunkedInSixtyPages() throws {
        let image = Images.factory(.ntag216)
        let (transceiver, tag) = Images.tag(
            .ntag216,
            [
                .exchange([0x3A, 0x04, 0x3F], Images.fastRead(image, 0x04, 0x3F)),
                .exchange([0x3A, 0x40, 0x7B], Images.fastRead(image, 0x40, 0x7B)),
                .exchange([0x3A, 0x7C, 0x82], Images.fastRead(image, 0x7C, 0x82)),
            ])
        let bytes = try tag.readPages(0x04...0x82)
        #expect(bytes == Array(image[0x10..<0x83 * 4]))
        #expect(tag.operations.last?.exchanges == 3)
        expectScriptDone(transceiver)
    }

    @Test func readPagesFallsBackToReadWithoutRawCommands() throws {
        let image = Images.factory(.ntag216)
        let (transceiver, tag) = Images.tag(
            .ntag216,
            [.exchange([0x30, 0x04], Images.read(image, 4)), .exchange([0x30, 0x08], Images.read(image, 8))],
            raw: false)
        _ = try tag.readPages(4...9)
        expectScriptDone(transceiver)
    }

    @Test func readPagesUsesReadOnGenericTags() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, page: 3, [0xE1, 0x10, 0x12, 0x00])
        let (transceiver, tag) = Images.tag(
            nil, [.exchange([0x30, 0x00], Images.read(image, 0)), .exchange([0x30, 0x04], Images.read(image, 4))])
        _ = try tag.readPages(0...7)
        expectScriptDone(transceiver)
    }

    @Test func fastReadWithWrongLengthIsInvalidResponse() {
        let (transceiver, tag) = Images.tag(.ntag215, [.exchange([0x3A, 0x04, 0x05], [UInt8](repeating: 0, count: 9))])
        #expect(type2Code { _ = try tag.fastRead(from: 4, through: 5) } == .invalidResponse)
        expectScriptDone(transceiver)
    }

    @Test func fastReadRejectsReversedRangeBeforeSending() {
        let (transceiver, tag) = Images.tag(.ntag215, [])
        #expect(type2Code { _ = try tag.fastRead(from: 5, through: 4) } == .invalidArgument)
        #expect(transceiver.sent.isEmpty)
    }

    @Test func signaturePasswordAndCounter() throws {
        let signature = (0..<32).map { UInt8($0) }
        let (transceiver, tag) = Images.tag(
            .ntag213,
            [
                .exchange([0x3C, 0x00], signature),
                .exchange([0x1B, 0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00]),
                .exchange([0x39, 0x02], [0x31, 0x3F, 0x00]),
            ])
        #expect(try tag.readSignature() == signature)
        try tag.authenticate(password: [0xFF, 0xFF, 0xFF, 0xFF], expectedPACK: [0x00, 0x00])
        #expect(try tag.readCounter() == 0x003F31)
        expectScriptDone(transceiver)
    }

    @Test func passwordFailuresAreAuthenticationFailed() {
        let (transceiver, tag) = Images.tag(
            .ntag213,
            [
                .exchange([0x1B, 1, 2, 3, 4], [0x12, 0x34]),
                .fail([0x1B, 1, 2, 3, 4], .nak(0)), .reactivation,
                .fail([0x1B, 1, 2, 3, 4], .noAnswer),
            ])
        for _ in 0..<3 {
            #expect(
                type2Code { try tag.authenticate(password: [1, 2, 3, 4], expectedPACK: [0xAB, 0xCD]) }
                    == .authenticationFailed)
        }
        expectScriptDone(transceiver)
    }

    @Test func rawCommandsAreRefusedWithoutARawPath() {
        let (transceiver, tag) = Images.tag(.ntag213, [], raw: false)
        #expect(type2Code { _ = try tag.readSignature() } == .unsupportedCommand)
        #expect(type2Code { _ = try tag.readCounter() } == .unsupportedCommand)
        #expect(transceiver.sent.isEmpty)
    }
}
