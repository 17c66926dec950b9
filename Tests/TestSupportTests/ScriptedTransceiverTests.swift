import NFCTags
import TestSupport
import Testing

/// A script's unexpected frame fails the test that sent it, unless the test allows it.
struct ScriptedTransceiverTests {
    @Test func aFrameTheScriptDidNotExpectFailsTheTest() {
        withKnownIssue("the mismatch is recorded as an issue") {
            let transceiver = ScriptedTransceiver([.exchange([0x30, 0x04], [0x00])])
            _ = try? transceiver.transceive([0x30, 0x05], timeoutMilliseconds: 10)
        }
    }

    @Test func aFrameAfterTheScriptEndedFailsTheTest() {
        withKnownIssue("the extra frame is recorded as an issue") {
            let transceiver = ScriptedTransceiver([])
            #expect(throws: TransportError.tagLost) {
                try transceiver.transceive([0x30, 0x04], timeoutMilliseconds: 10)
            }
        }
    }

    @Test func anAllowedMismatchIsOnlyListed() throws {
        let transceiver = ScriptedTransceiver([.exchange([0x30, 0x04], [0x01])], allowUnexpected: true)
        #expect(try transceiver.transceive([0x30, 0x05], timeoutMilliseconds: 10) == [0x01])
        #expect(transceiver.mismatches.map(\.index) == [0])
        #expect(throws: TransportError.tagLost) { try transceiver.reactivate() }
    }

    @Test func theScriptPlayedAsWrittenRecordsNothing() throws {
        let transceiver = ScriptedTransceiver([.ack([0xA2, 0x04, 1, 2, 3, 4]), .reactivation])
        #expect(try transceiver.transceive([0xA2, 0x04, 1, 2, 3, 4], timeoutMilliseconds: 10) == [0x0A])
        try transceiver.reactivate()
        #expect(transceiver.mismatches.isEmpty && transceiver.remaining.isEmpty)
    }
}
