import NDEF
import NFCTags
import TestSupport
import Testing

/// The tear-safe T4T update and its read-back, scripted (`docs/reference/type4.md` §1.5).
@Suite struct Type4TagUpdateTests {
    private typealias T = Type4TagNDEFTests
    private let message = (0..<60).map { UInt8(0x40 + $0) }

    private func updates(_ message: [UInt8]) -> [ScriptedTransceiver.Step] {
        [
            .exchange(T.hex("00 D6 00 02 34") + Array(message[0..<52]), T.ok),
            .exchange(T.hex("00 D6 00 36 08") + Array(message[52...]), T.ok),
            .exchange(T.hex("00 D6 00 00 02 00 3C"), T.ok),
        ]
    }

    @Test func aFreshFileGetsTheBodyInMLcPiecesThenNLEN() throws {
        let script = ScriptedTransceiver(T.detection(nlen: [0, 0]) + updates(message))
        let tag = Type4Tag(transceiver: script)
        _ = try tag.detectNDEF()
        let result = try tag.writeNDEF(message)
        #expect(result.writtenPages == [2, 54, 0] && result.skippedPages.isEmpty)
        #expect(result.pages[0] == [0x00, 0x3C] && result.pages[54] == Array(message[52...]))
        #expect(tag.total.writes == 3)
        T.finished(script)
    }

    @Test func aFileHoldingAMessageIsEmptiedFirst() throws {
        let script = ScriptedTransceiver(
            T.detection(nlen: [0, 5]) + [.exchange(T.hex("00 D6 00 00 02 00 00"), T.ok)] + updates(message))
        let tag = Type4Tag(transceiver: script)
        _ = try tag.detectNDEF()
        #expect(try tag.writeNDEF(message).writtenPages == [0, 2, 54, 0])
        T.finished(script)
    }

    @Test func theSameMessageAlreadyReadIsNotWrittenAgain() throws {
        let short = [UInt8](message.prefix(40))
        let script = ScriptedTransceiver(
            T.detection(nlen: [0, 40]) + [.exchange(T.hex("00 B0 00 02 28"), short + T.ok)])
        let tag = Type4Tag(transceiver: script)
        _ = try tag.detectNDEF()
        _ = try tag.readNDEF()
        let result = try tag.writeNDEF(short)
        #expect(result.writtenPages.isEmpty && result.skippedPages == [0, 2])
        T.finished(script)
    }

    @Test func aRefusedUpdateIsReadOnlyAndATearLeavesNLENZero() throws {
        let refused = ScriptedTransceiver(
            T.detection(nlen: [0, 0]) + [.exchange(T.hex("00 D6 00 02 34") + Array(message[0..<52]), T.hex("69 82"))])
        let tag = Type4Tag(transceiver: refused)
        _ = try tag.detectNDEF()
        #expect(throws: TagError(.readOnly, "")) { try tag.writeNDEF(message) }
        // A tear in the body: the real NLEN, the last UPDATE, was never sent.
        let torn = ScriptedTransceiver(
            T.detection(nlen: [0, 5]) + [
                .exchange(T.hex("00 D6 00 00 02 00 00"), T.ok),
                .fail(T.hex("00 D6 00 02 34") + Array(message[0..<52]), .tagLost),
            ])
        let again = Type4Tag(transceiver: torn)
        _ = try again.detectNDEF()
        #expect(throws: TransportError.tagLost) { try again.writeNDEF(message) }
        T.finished(torn)
    }

    /// The tag after writing `message` to a fresh file, with the read-back answered from `body` (the file's
    /// first 62 bytes as the tag holds them).
    private func writtenTag(readingBack body: [UInt8]) throws -> (Type4Tag, NDEFWriteResult, ScriptedTransceiver) {
        let script = ScriptedTransceiver(
            T.detection(nlen: [0, 0]) + updates(message) + [
                .exchange(T.hex("00 B0 00 00 3B"), Array(body[0..<59]) + T.ok),
                .exchange(T.hex("00 B0 00 3B 03"), Array(body[59...]) + T.ok),
            ])
        let tag = Type4Tag(transceiver: script)
        _ = try tag.detectNDEF()
        return (tag, try tag.writeNDEF(message), script)
    }

    @Test func verifyReadsEveryWrittenByteBack() throws {
        let (tag, written, script) = try writtenTag(readingBack: T.hex("00 3C") + message)
        try tag.verify(written)
        T.finished(script)
    }

    @Test func aByteThatReadsBackDifferentlyIsAVerifyMismatchNamingItsPiece() throws {
        var body = T.hex("00 3C") + message
        body[60] ^= 0xFF
        let (tag, written, _) = try writtenTag(readingBack: body)
        #expect {
            try tag.verify(written)
        } throws: { ($0 as? TagError)?.code == .verifyMismatch && ($0 as? TagError)?.page == 54 }
    }

    @Test func aMessageBeyondTheFileIsACapacityErrorAndNothingIsSent() throws {
        let small = Array(T.cc[0..<11]) + [0x00, 0x10, 0x00, 0x00]
        let script = ScriptedTransceiver(T.detection(nlen: [0, 0], cc: small))
        let tag = Type4Tag(transceiver: script)
        #expect(try tag.detectNDEF().capacity == 14)
        #expect(throws: TagError(.capacity, "")) { try tag.writeNDEF(message) }
        T.finished(script)
    }
}
