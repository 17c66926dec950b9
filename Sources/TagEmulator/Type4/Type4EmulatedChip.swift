import NFCTags

/// Which Type 4 tag an emulator behaves as: the NXP NTAG 424 DNA in its delivery state, or a generic
/// NFC Forum T4T of another vendor (`docs/reference/type4.md` §1, §1.8).
///
/// The generic tag has two files: the CC (file number 1, `E103`) and the NDEF file (file number 2, `E104`).
/// Its CC is 15 bytes for mapping 2.0 (NDEF file control TLV `04 06`) or 17 bytes for mapping 3.0
/// (ENDEF TLV `06 08` with a 4-byte size; the file starts with a 4-byte ENLEN).
public enum Type4EmulatedChip: Sendable, Hashable {
    /// NXP NTAG 424 DNA (NT4H2421Gx): files 01/02/03, GetVersion, per-file access rights.
    case ntag424
    /// A generic T4T: mapping `0x20` (2.0) or `0x30` (3.0), NDEF file size (its length field included),
    /// MLe and MLc as its CC announces them.
    case generic(mapping: UInt8, ndefFileSize: Int, mle: Int, mlc: Int)

    /// The generic default: mapping 2.0, a 2048-byte NDEF file (2046 bytes of message), MLe and MLc
    /// `00F6` (246 bytes, as ST's M24SR/ST25TA family announce; `docs/reference/type4.md` §1.3).
    public static let genericDefault = Type4EmulatedChip.generic(
        mapping: 0x20, ndefFileSize: 2048, mle: 0xF6, mlc: 0xF6)

    /// The chip as the family-neutral pipeline names it.
    public var tagChip: TagChip {
        switch self {
        case .ntag424: TagChip(family: "type4", id: "ntag424", displayName: "NTAG 424 DNA")
        case .generic: TagChip(family: "type4", id: "type4", displayName: "Type 4 tag")
        }
    }

    /// The UID the chip answers anticollision with: 7 bytes (double size) for both. The NTAG 424 DNA ships
    /// one (its random-ID option is not modelled); the generic tag is modelled as a 7-byte-UID tag (ATQA `0044`).
    public var uidForm: UIDForm { .sevenByteUID }

    /// Whether the chip speaks NXP's native commands (CLA `90`); a generic tag answers them `6E00`.
    public var speaksNativeCommands: Bool { self == .ntag424 }

    /// ATQA (high byte first, as PN53x readers report it): `0344` for the NTAG 424 DNA (§1.1), `0044`
    /// (a plain 7-byte-UID tag) for the generic one.
    public var atqa: UInt16 { self == .ntag424 ? 0x0344 : 0x0044 }

    /// Where the CC's NDEF write-access byte sits when the tag honours it (generic tag: 14 for mapping 2.0,
    /// 16 for 3.0); `nil` for the NTAG 424 DNA, whose file settings decide instead.
    public var ccWriteAccessOffset: Int? {
        switch self {
        case .ntag424: nil
        case .generic(let mapping, _, _, _): mapping == 0x30 ? 16 : 14
        }
    }

    /// The delivery-state files (`docs/reference/type4.md` §1.8 for the NTAG 424 DNA).
    ///
    /// - Throws: `Type4EmulatorError.invalidChip` for generic parameters out of range.
    public func deliveryFiles() throws(Type4EmulatorError) -> [Type4File] {
        switch self {
        case .ntag424:
            let cc: [UInt8] = [
                0x00, 0x17, 0x20, 0x01, 0x00, 0x00, 0xFF, 0x04, 0x06, 0xE1, 0x04, 0x01, 0x00, 0x00, 0x00,
                0x05, 0x06, 0xE1, 0x05, 0x00, 0x80, 0x82, 0x83,
            ]
            return [
                Type4File(
                    number: 0x01, identifier: 0xE103, bytes: cc + [UInt8](repeating: 0, count: 9),
                    settings: Type4FileSettings(communicationMode: .plain, accessRights: 0xE000)),
                Type4File(
                    number: 0x02, identifier: 0xE104, bytes: [UInt8](repeating: 0, count: 256),
                    settings: Type4FileSettings(communicationMode: .plain, accessRights: 0xEEE0), supportsSDM: true),
                Type4File(
                    number: 0x03, identifier: 0xE105, bytes: [UInt8](repeating: 0, count: 128),
                    settings: Type4FileSettings(communicationMode: .full, accessRights: 0x2330)),
            ]
        case .generic(let mapping, let size, let mle, let mlc):
            guard mapping == 0x20 || mapping == 0x30 else {
                throw .invalidChip("mapping must be 20h (2.0) or 30h (3.0), got \(mapping)")
            }
            let lengthField = mapping == 0x30 ? 4 : 2
            guard size > lengthField + 2, size <= 0x7FFF else {
                throw .invalidChip("NDEF file size \(size) must be \(lengthField + 3)...32767")
            }
            guard (0x0F...0xFFFF).contains(mle), (0x01...0xFFFF).contains(mlc) else {
                throw .invalidChip("MLe must be 15...65535 and MLc 1...65535, got \(mle) and \(mlc)")
            }
            let header: [UInt8] = [UInt8(mle >> 8), UInt8(mle & 0xFF), UInt8(mlc >> 8), UInt8(mlc & 0xFF)]
            let cc: [UInt8] =
                mapping == 0x30
                ? [0x00, 0x11, 0x30] + header + [0x06, 0x08, 0xE1, 0x04] + bigEndian(size, bytes: 4) + [0x00, 0x00]
                : [0x00, 0x0F, 0x20] + header + [0x04, 0x06, 0xE1, 0x04] + bigEndian(size, bytes: 2) + [0x00, 0x00]
            let open = Type4FileSettings(communicationMode: .plain, accessRights: 0xEEEF)
            return [
                Type4File(number: 0x01, identifier: 0xE103, bytes: cc, settings: open),
                Type4File(
                    number: 0x02, identifier: 0xE104, bytes: [UInt8](repeating: 0, count: size), settings: open),
            ]
        }
    }

    /// The delivery-state application keys: K0–K4 all 16×`00` version `00` on the NTAG 424 DNA (§4.1), none
    /// on a generic tag.
    public var deliveryKeys: [Type4Key] {
        speaksNativeCommands ? [Type4Key](repeating: .factory, count: Type4Key.count) : []
    }

    /// Whether `image` is a stored image of this chip: the files' bytes alone, or (NTAG 424 DNA) followed by a
    /// well-formed secure-state trailer (`Type4Application+Image`).
    public func accepts(image: [UInt8]) -> Bool {
        guard let files = try? deliveryFiles() else { return false }
        var application = Type4Application(files: files, keys: deliveryKeys)
        return (try? application.restore(image: image)) != nil
    }

    /// `value` as `bytes` big-endian bytes.
    private func bigEndian(_ value: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
