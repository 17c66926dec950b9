import NFCTags
import TestSupport
import Testing

/// Tag memory images and script helpers shared by the Type 2 tests (`docs/reference/type2.md` §2.8).
enum Images {
    /// The UID of the golden trace (`docs/reference/type2.md` §5.6).
    static let goldenUID: [UInt8] = [0x04, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80]

    /// A factory image of `chip`: UID pages, CC, factory TLVs, lock page `00 00 00 BD`, CFG pages.
    static func factory(_ chip: ChipModel, uid: [UInt8] = goldenUID) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: chip.pageCount * 4)
        let bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        let bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        set(&image, page: 0, [uid[0], uid[1], uid[2], bcc0])
        set(&image, page: 1, Array(uid[3...6]))
        set(&image, page: 2, [bcc1, 0x48, 0x00, 0x00])
        set(&image, page: 3, chip.factoryCC)
        switch chip {
        case .ntag213:
            set(&image, page: 4, [0x01, 0x03, 0xA0, 0x0C])
            set(&image, page: 5, [0x34, 0x03, 0x00, 0xFE])
        case .ntag215, .ntag216:
            set(&image, page: 4, [0x03, 0x00, 0xFE, 0x00])
        case .mf0ul11, .mf0ul21:
            break
        }
        if let lock = chip.dynamicLockPage { set(&image, page: lock, [0x00, 0x00, 0x00, 0xBD]) }
        set(&image, page: chip.cfg0Page, [0x04, 0x00, 0x00, 0xFF])
        return image
    }

    /// Overwrites one page.
    static func set(_ image: inout [UInt8], page: Int, _ bytes: [UInt8]) {
        image.replaceSubrange(page * 4..<page * 4 + 4, with: bytes)
    }

    /// Overwrites bytes from a byte address.
    static func set(_ image: inout [UInt8], address: Int, _ bytes: [UInt8]) {
        image.replaceSubrange(address..<address + bytes.count, with: bytes)
    }

    /// The 16-byte READ answer for `page`, with roll-over past the last page.
    static func read(_ image: [UInt8], _ page: Int) -> [UInt8] {
        let pages = image.count / 4
        return (0..<4).flatMap { index -> [UInt8] in
            let target = (page + index) % pages
            return Array(image[target * 4..<target * 4 + 4])
        }
    }

    /// The FAST_READ answer for pages `start` … `end`.
    static func fastRead(_ image: [UInt8], _ start: Int, _ end: Int) -> [UInt8] {
        Array(image[start * 4..<(end + 1) * 4])
    }

    /// Script steps for `30 00`, `30 04` on `image` (the detection reads).
    static func detectionSteps(_ image: [UInt8]) -> [ScriptedTransceiver.Step] {
        [.exchange([0x30, 0x00], read(image, 0)), .exchange([0x30, 0x04], read(image, 4))]
    }

    /// A tag with a known chip (no GET_VERSION sent) over a script.
    static func tag(
        _ chip: ChipModel?, _ steps: [ScriptedTransceiver.Step], raw: Bool = true
    ) -> (ScriptedTransceiver, Type2Tag) {
        let transceiver = ScriptedTransceiver(steps, supportsRawCommands: raw)
        let identity = Type2Identity(chip: chip, version: chip?.version)
        return (transceiver, Type2Tag(transceiver: transceiver, identity: identity))
    }
}

/// Asserts that every frame matched the script and the script was used up.
func expectScriptDone(_ transceiver: ScriptedTransceiver, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
        transceiver.mismatches.isEmpty, "mismatched frames: \(transceiver.mismatches)", sourceLocation: sourceLocation)
    #expect(transceiver.remaining.isEmpty, "\(transceiver.remaining.count) steps left", sourceLocation: sourceLocation)
}

/// The Type2Error code of `body`'s failure, or `nil` if it did not throw one.
func type2Code(_ body: () throws -> Void) -> Type2Error.Code? {
    do {
        try body()
        return nil
    } catch let error as Type2Error {
        return error.code
    } catch {
        return nil
    }
}
