import Crypto
import NDEF
import NFCTags
import Testing

@testable import TagEmulator

/// SUN on the emulated NTAG 424 DNA's reads (`docs/reference/type4.md` §3.1, §5.3): SDMReadCtr per read sequence,
/// chunks of one output, static bytes when authenticated, the limit, and the rights SDM grants.
@Suite struct Type4EmulatorSDMTests {
    /// A tag whose file 02 holds `file` with the settings `settings` (ChangeFileSettings data) and SDMReadCtr
    /// `counter`; PICCData padding `padding` when given.
    static func sdmTag(
        file: [UInt8], settings: String, counter: UInt32 = 0, padding: String? = nil, uid: [UInt8] = type4UID
    ) throws -> Type4Emulator {
        let tag = try activeNTAG424(uid: uid, random: padding.map { [.sdmPadding: $0] } ?? [:])
        for start in stride(from: 0, to: file.count, by: 200) {
            let piece = Array(file[start..<min(start + 200, file.count)])
            let apdu = [0x00, 0xD6, 0x82, UInt8(start)] + [UInt8(piece.count)] + piece
            #expect(tag.send(apdu) == [0x90, 0x00])
        }
        try tag.setFileSettings(Type4FileSettings(decoding: try hex(settings), sdmCapable: true), ofFile: 2)
        try tag.setSDMReadCounter(counter, ofFile: 2)
        return tag
    }

    static let an12196Settings = "40 EEEE D1 FE00 1F0000 440000 440000 200000 6A0000"
    static let an12196URL =
        "my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962"
        + "&cmac=ECC1E7F6C6C73BF6"

    /// AN12196 Table 6 through the host's NDEF read: SDMReadCtr 7 → 8 at the tap, padding `A243C86DFC`.
    @Test func aTapReadsAN12196Table6sURL() throws {
        let tag = try Self.sdmTag(
            file: Type4SDMSettingsMirroringTests.an12196File(), settings: Self.an12196Settings, counter: 7,
            padding: "A243C86DFC", uid: try hex("04958CAA5C5E80"))
        let reader = Type4Tag(transceiver: Type4EmulatorTransceiver(tag))
        let message = try reader.readNDEF()
        #expect(String(decoding: message.dropFirst(5), as: UTF8.self) == Self.an12196URL)
        #expect(tag.application.files[1].sdmReadCounter == 8)
        #expect(tag.application.files[1].bytes.prefix(122) == Type4SDMSettingsMirroringTests.an12196File()[...])
    }

    @Test func chunkedReadsOfOneSequenceShareOneOutputAndOneIncrement() throws {
        let tag = try Self.sdmTag(
            file: Type4SDMSettingsMirroringTests.an12196File(), settings: Self.an12196Settings, counter: 7,
            padding: "A243C86DFC", uid: try hex("04958CAA5C5E80"))
        #expect(try tag.send("00 A4 00 0C 02 E1 04") == hex("90 00"))
        var file: [UInt8] = []
        for offset in stride(from: 0, to: 122, by: 16) {
            let piece = tag.send([0x00, 0xB0, 0x00, UInt8(offset), UInt8(min(16, 122 - offset))])
            #expect(piece.suffix(2) == [0x90, 0x00])
            file += piece.dropLast(2)
        }
        #expect(String(decoding: file.dropFirst(7), as: UTF8.self) == Self.an12196URL)
        #expect(tag.application.files[1].sdmReadCounter == 8)
    }

    /// PICCData's counter from the ISO read of `tag`'s file at 0x1F (AN12196 layout, keys 0).
    static func counterSeen(_ tag: Type4Emulator, apdu: String) throws -> UInt32? {
        let answer = try tag.send(apdu)
        let text = String(decoding: answer.dropLast(2), as: UTF8.self)
        let picc = try #require(Hex.bytes(text.dropFirst(0x1F).prefix(32)))
        return try SUNCrypto.decryptPICCData(metaReadKey: AN12196.zeroKey, picc)?.counter
    }

    @Test func anyOtherCommandOrTheOtherReadStartsANewSequence() throws {
        let tag = try Self.sdmTag(file: Type4SDMSettingsMirroringTests.an12196File(), settings: Self.an12196Settings)
        let iso = "00 B0 82 00 7A"
        let native = "90 AD 00 00 07 02 000000 7A0000 00"
        #expect(try Self.counterSeen(tag, apdu: iso) == 1)
        #expect(try Self.counterSeen(tag, apdu: iso) == 1)
        #expect(try Self.counterSeen(tag, apdu: native) == 2)
        #expect(try Self.counterSeen(tag, apdu: native) == 2)
        #expect(try tag.send("00 A4 00 0C 02 E1 04") == hex("90 00"))
        #expect(try Self.counterSeen(tag, apdu: native) == 3)
        _ = try tag.send("90 64 00 00 01 00 00")
        #expect(try Self.counterSeen(tag, apdu: native) == 4)
        tag.fieldOff()
        #expect(tag.activate() != nil)
        _ = try tag.send(selectNDEFApplication)
        #expect(try Self.counterSeen(tag, apdu: iso) == 5)
        #expect(tag.application.files[1].sdmReadCounter == 5)
    }

    @Test func authenticatedReadsReturnTheStaticBytesAndDoNotCount() throws {
        let file = Type4SDMSettingsMirroringTests.an12196File()
        let tag = try Self.sdmTag(file: file, settings: Self.an12196Settings)
        var writes = 0
        tag.onMemoryWritten = { writes += 1 }
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 1, key: AN12196.zeroKey)
        #expect(try host.readData(2, offset: 0, length: 122, mode: .plain) == file)
        #expect(try tag.send("00 B0 82 00 7A") == file + [0x90, 0x00])
        #expect(tag.application.files[1].sdmReadCounter == 0 && writes == 0)
        tag.halt()
        #expect(tag.activate() != nil)
        _ = try tag.send(selectNDEFApplication)
        #expect(try tag.send("00 B0 82 00 7A") != file + [0x90, 0x00])
        #expect(tag.application.files[1].sdmReadCounter == 1 && writes == 1, "a counted read is saved")
        #expect(tag.application.files[1].bytes.prefix(122) == file[...], "mirrors never reach NVM")
    }

    @Test func theReadCounterLimitStopsUnauthenticatedReads() throws {
        let settings = "40 EEEE F1 FE00 1F0000 440000 440000 200000 6A0000 020000"
        let tag = try Self.sdmTag(file: Type4SDMSettingsMirroringTests.an12196File(), settings: settings)
        #expect(try Self.counterSeen(tag, apdu: "00 B0 82 00 7A") == 1)
        _ = try tag.send(selectNDEFApplication)
        #expect(try Self.counterSeen(tag, apdu: "00 B0 82 00 7A") == 2)
        _ = try tag.send(selectNDEFApplication)
        #expect(try tag.send("00 B0 82 00 7A") == hex("69 82"))
        #expect(try tag.send("90 AD 00 00 07 02 000000 7A0000 00") == hex("91 9D"))
        let unlimited = try Self.sdmTag(
            file: Type4SDMSettingsMirroringTests.an12196File(), settings: Self.an12196Settings, counter: 0xFF_FFFE)
        #expect(try Self.counterSeen(unlimited, apdu: "00 B0 82 00 7A") == 0xFF_FFFF)
        _ = try unlimited.send(selectNDEFApplication)
        #expect(try unlimited.send("00 B0 82 00 7A") == hex("69 82"))
    }

    /// Read and RW need key 0; SDMFileRead key 2 still lets anyone read, with the mirrors. Without an SDMFileRead
    /// key the plain mirrors alone grant nothing.
    @Test func sdmFileReadGrantsUnauthenticatedReading() throws {
        let layout = [UInt8](repeating: 0x2E, count: 64)
        let keyed = try Self.sdmTag(file: layout, settings: "40 0000 C1 FEE2 100000 1F0000 100000 260000")
        let answer = try keyed.send("90 AD 00 00 07 02 000000 400000 00")
        #expect(answer.suffix(2) == [0x91, 0x00])
        #expect(String(decoding: answer[0x10..<0x25], as: UTF8.self) == "04968CAA5C5E80.000001")
        let macKey = try SUNCrypto.macKey(fileReadKey: AN12196.zeroKey, uid: type4UID, counter: 1)
        let mac = try SUNCrypto.sdmMAC(macKey: macKey, input: Array(answer[0x10..<0x26]))
        #expect(String(decoding: answer[0x26..<0x36], as: UTF8.self) == Hex.compact(mac))
        let unkeyed = try Self.sdmTag(file: layout, settings: "40 0000 C1 FEEF 100000 1F0000")
        #expect(try unkeyed.send("00 B0 82 00 40") == hex("69 82"))
        #expect(try unkeyed.send("90 AD 00 00 07 02 000000 400000 00") == hex("91 AE"))
        #expect(unkeyed.application.files[1].sdmReadCounter == 0)
    }
}
