import Testing

@testable import TagEmulator

@Suite struct ISODEPLinkTests {
    @Test func blocksCarryTheCIDOnlyWhenTheReaderDoes() {
        var link = ISODEPLink()
        link.cid = 3
        #expect(link.block(0x02, [0x90, 0x00]) == [0x02, 0x90, 0x00])
        #expect(link.answerPieceSize == 253)
        link.usesCID = true
        #expect(link.block(0x02, [0x90, 0x00]) == [0x0A, 0x03, 0x90, 0x00])
        #expect(link.block(0xA3) == [0xAB, 0x03])
        #expect(link.answerPieceSize == 252)
    }

    @Test func startsWithBlockNumberOneAndFSD256() {
        let link = ISODEPLink()
        #expect(link.blockNumber == 1)
        #expect(link.readerFrameSize == 256)
        #expect(link.incoming.isEmpty && link.outgoing.isEmpty && link.lastBlock.isEmpty)
    }
}
