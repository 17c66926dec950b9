import NDEF
import NFCTags
import Testing

/// GetVersion parsing (`docs/reference/type4.md` §2.3), with the NTAG 424 DNA vector.
@Suite struct Type4VersionTests {
    private typealias V = Type4Vectors

    private let parts = [
        V.hex("04 04 02 30 00 11 05"), V.hex("04 04 02 01 02 11 05"),
        V.hex("04 96 8C AA 5C 5E 80 CD 65 93 5D 40 21 18"),
    ]

    @Test func theNTAG424AnswerInItsFields() throws {
        let version = try #require(Type4Version(parts: parts))
        #expect(version.hardware.bytes == parts[0] && version.software.bytes == parts[1])
        #expect(version.hardware.vendor == 0x04 && version.hardware.type == 0x04 && version.hardware.major == 0x30)
        #expect(version.software.major == 0x01 && version.software.minor == 0x02)
        #expect(version.hardware.storageDescription == "256 < size < 512 bytes")
        #expect(version.uid == V.uid424 && version.batch == V.hex("CD 65 93 5D 40"))
        #expect(version.week == 0x21 && version.year == 0x18 && version.fabKeyID == nil && !version.hidesUID)
    }

    @Test func aFabKeyIDAndARandomIDAreRead() throws {
        let random = [UInt8](repeating: 0, count: 7) + Array(parts[2][7...]) + [0x1F]
        let version = try #require(Type4Version(parts: [parts[0], parts[1], random]))
        #expect(version.fabKeyID == 0x1F && version.hidesUID)
    }

    @Test func aStorageCodeWithoutBitZeroIsExact() throws {
        var hardware = parts[0]
        hardware[5] = 0x10
        #expect(Type4Version.Part(hardware)?.storageDescription == "256 bytes")
    }

    @Test func partsOfTheWrongLengthAreUnparsable() {
        #expect(Type4Version(parts: [parts[0], parts[1]]) == nil)
        #expect(Type4Version(parts: [Array(parts[0].dropLast()), parts[1], parts[2]]) == nil)
        #expect(Type4Version(parts: [parts[0], parts[1], Array(parts[2].prefix(13))]) == nil)
        #expect(Type4VersionAnswer(parts: parts, status: 0x91AF).version == nil, "not completed")
        #expect(Type4VersionAnswer(parts: parts, status: 0x9100).version != nil)
    }
}
