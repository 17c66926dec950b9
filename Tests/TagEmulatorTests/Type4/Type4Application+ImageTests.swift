import NFCTags
import TagEmulator
import Testing

/// The NTAG 424 DNA image with its secure-state trailer (`Type4Application+Image`): what `store=DIR` saves.
@Suite struct Type4ApplicationImageTests {
    /// A tag with a changed key, SDM settings and a counter.
    static func personalised() throws -> Type4Emulator {
        let tag = try Type4Emulator(chip: .ntag424, uid: type4UID)
        try tag.setKey(2, to: [UInt8](repeating: 0x5A, count: 16), version: 9)
        let settings = try Type4FileSettings(
            decoding: try hex("40 00E0 C1 FF12 200000 430000 430000"), sdmCapable: true)
        try tag.setFileSettings(settings, ofFile: 2)
        try tag.setSDMReadCounter(0x0A0B0C, ofFile: 2)
        return tag
    }

    @Test func theTrailerHoldsKeysSettingsAndCounters() throws {
        let image = try Self.personalised().image
        let trailer = Array(image[416...])
        #expect(trailer.prefix(5) == [0x4E, 0x34, 0x32, 0x34, 0x02])
        #expect(Int(trailer[5]) << 8 | Int(trailer[6]) == trailer.count - 7)
        // Per key: value, version, TotFailCtr (2).
        let zeroKey = [UInt8](repeating: 0, count: 19)
        #expect(Array(trailer[7..<45]) == zeroKey + zeroKey)
        #expect(Array(trailer[45..<64]) == [UInt8](repeating: 0x5A, count: 16) + [0x09, 0x00, 0x00])
        var files = Array(trailer[(7 + 95)...])
        #expect(files.removeFirst() == 3)
        #expect(Array(files.prefix(8)) == (try hex("01 000000 03 00 00E0")))
        #expect(Array(files[8..<28]) == (try hex("02 0C0B0A 0F 40 00E0 C1 FF12 200000 430000 430000")))
        #expect(Array(files[28...]) == (try hex("03 000000 03 03 3023")))
    }

    @Test func anImageRoundTripsThroughTheInitialiser() throws {
        let tag = try Self.personalised()
        #expect(Type4EmulatedChip.ntag424.accepts(image: tag.image))
        let restored = try Type4Emulator(image: tag.image, chip: .ntag424, uid: type4UID)
        #expect(restored.image == tag.image)
        #expect(restored.application == tag.application)
        #expect(try restored.key(2) == Type4Key(value: [UInt8](repeating: 0x5A, count: 16), version: 9))
    }

    @Test func aVersionOneTrailerWithoutFailureCountersStillLoads() throws {
        let image = try Self.personalised().image
        let trailer = Array(image[416...])
        var body: [UInt8] = []
        for key in 0..<5 {
            let start = 7 + 19 * key
            body += trailer[start..<(start + 17)]
        }
        body += trailer[(7 + 95)...]
        let header: [UInt8] = [0x4E, 0x34, 0x32, 0x34, 0x01, UInt8(body.count >> 8), UInt8(body.count & 0xFF)]
        let v1: [UInt8] = Array(image[..<416]) + header + body
        let restored = try Type4Emulator(image: v1, chip: .ntag424, uid: type4UID)
        #expect(try restored.key(2) == Type4Key(value: [UInt8](repeating: 0x5A, count: 16), version: 9))
        #expect(restored.image == image, "saved again as version 2")
    }

    @Test func backInTheDeliveryStateTheTrailerIsLeftOut() throws {
        let tag = try Self.personalised()
        try tag.setKey(2, to: [UInt8](repeating: 0, count: 16), version: 0)
        try tag.setFileSettings(Type4FileSettings(communicationMode: .plain, accessRights: 0xEEE0), ofFile: 2)
        #expect(tag.image.count == 416 + 7 + 95 + 1 + 3 * 8, "the counter is not a delivery value yet")
        try tag.setSDMReadCounter(0, ofFile: 2)
        #expect(tag.image.count == 416)
        #expect(Type4EmulatedChip.ntag424.accepts(image: tag.image))
    }

    /// Edits of a good trailer (offsets into the trailer) and what the chip says about them.
    @Test(arguments: [
        ("magic", 0, UInt8(0x00)),
        ("version", 4, 0x03),
        ("length", 6, 0x00),
        ("file count", 102, 0x02),
        ("file number", 103, 0x07),
        ("SDM on file 01", 108, 0x40),
        ("an RFU option", 108, 0x04),
    ])
    func aMalformedTrailerIsRefused(what: String, offset: Int, value: UInt8) throws {
        var image = try Self.personalised().image
        image[416 + offset] = value
        #expect(!Type4EmulatedChip.ntag424.accepts(image: image), "\(what)")
        do {
            _ = try Type4Emulator(image: image, chip: .ntag424, uid: type4UID)
            Issue.record("\(what) accepted")
        } catch {
            guard case .imageTrailer = error else {
                Issue.record("\(what): \(error)")
                return
            }
        }
    }

    @Test func truncatedOrExtendedTrailersAreRefused() throws {
        let image = try Self.personalised().image
        for count in [417, 420, 423, 500, image.count - 1] {
            #expect(!Type4EmulatedChip.ntag424.accepts(image: Array(image.prefix(count))), "\(count) bytes")
        }
        #expect(!Type4EmulatedChip.ntag424.accepts(image: image + [0x00]))
        #expect(throws: Type4EmulatorError.imageSize(expected: 416, actual: 415)) {
            try Type4Emulator(image: Array(image.prefix(415)), chip: .ntag424, uid: type4UID)
        }
    }

    @Test func aGenericTagHasNoTrailer() throws {
        let chip = Type4EmulatedChip.genericDefault
        let tag = try Type4Emulator(chip: chip, uid: type4UID)
        #expect(tag.image.count == 15 + 2048 && chip.accepts(image: tag.image))
        let trailer = Array(try Self.personalised().image[416...])
        #expect(!chip.accepts(image: tag.image + trailer))
        #expect(throws: Type4EmulatorError.imageSize(expected: 2063, actual: 2063 + trailer.count)) {
            try Type4Emulator(image: tag.image + trailer, chip: chip, uid: type4UID)
        }
    }
}
