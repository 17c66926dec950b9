import Crypto
import NDEF

/// The Type 2 chips as manifests, help texts and the simulator name them.
///
/// Pre-flight capacities are the largest NDEF message of the factory layout (`docs/reference/type2.md` §5.4):
///
/// ```
/// ntag213          137  (Lock Control TLV first, NDEF TLV at byte 21)
/// ntag215          492  (data area 496 bytes minus the 3-byte TLV length form and T)
/// ntag216          868
/// ultralight-ev1    46  (MF0UL11: 48 bytes of user memory, pages 04h-0Fh, minus T and 1-byte L)
/// mf0ul11           46
/// mf0ul21          126  (128 bytes, pages 04h-23h, minus T and 1-byte L)
/// type2            137  (any NDEF-formatted Type 2 tag; pre-flight assumes the smallest NTAG21x)
/// ```
///
/// `ultralight-ev1` accepts either EV1 size, so it is sized for the smaller MF0UL11; `type2` accepts any chip of
/// the family, and the line worker still checks each tag's real capacity when it is read.
extension Type2Family {
    /// ISO/IEC 14443-3 type A frames.
    public var transport: Transport { .iso14443A }

    /// NTAG213/215/216, either Ultralight EV1 or one of them, in the order help texts list them.
    public var chips: [ChipDescriptor] {
        [
            Self.chip(.ntag213, capacity: 137, note: "Lock Control TLV first, NDEF TLV at byte 21"),
            Self.chip(.ntag215, capacity: 492, note: "data area 496 bytes minus T and the 3-byte L"),
            Self.chip(.ntag216, capacity: 868, note: "data area 872 bytes minus T and the 3-byte L"),
            ChipDescriptor(
                family: Self.name, manifestName: "ultralight-ev1", displayName: "Ultralight EV1",
                accepts: [.mf0ul11, .mf0ul21], userMemory: ChipModel.mf0ul11.userBytes, capacity: .bytes(46),
                capacityNote: "either EV1; sized for the smaller MF0UL11", uidForm: .sevenByteUID,
                simulatorName: nil, jobSimulatorName: ChipModel.mf0ul21.rawValue,
                capabilities: Self.capabilities(of: .mf0ul11),
                identification: "GET_VERSION product type 03h, storage 0Bh or 0Eh"),
            Self.chip(.mf0ul11, capacity: 46, note: "pages 04h–0Fh, minus the TLV's T and L bytes"),
            Self.chip(.mf0ul21, capacity: 126, note: "pages 04h–23h, minus T and L"),
        ]
    }

    /// `type2`: any Type 2 tag, sized for the smallest NTAG21x.
    public var anyChip: ChipDescriptor? {
        ChipDescriptor(
            family: Self.name, manifestName: Self.name, displayName: "any Type 2 tag", accepts: [], userMemory: nil,
            capacity: .bytes(137),
            capacityNote: "sized for the smallest NTAG21x; the line worker still checks each tag's real capacity",
            uidForm: .sevenByteUID, simulatorName: nil, jobSimulatorName: ChipModel.ntag215.rawValue,
            capabilities: ChipCapabilities(
                locks: [.lockBits], mirrors: [.uidCounterASCII], originalitySignature: .secp128r1,
                passwordProtection: true),
            identification: "SAK bits 6 and 4 clear")
    }

    /// The descriptor of one chip, named and sized as `ChipModel` knows it.
    static func chip(_ model: ChipModel, capacity: Int, note: String) -> ChipDescriptor {
        ChipDescriptor(
            family: name, manifestName: model.rawValue,
            displayName: model.isNTAG ? model.displayName : "Ultralight EV1 \(model.rawValue.uppercased())",
            accepts: [model.tagChip], userMemory: model.userBytes, capacity: .bytes(capacity), capacityNote: note,
            uidForm: model.uidForm, simulatorName: model.rawValue, capabilities: capabilities(of: model),
            identification: "GET_VERSION " + Hex.string(model.version))
    }

    /// NTAG21x: lock bits, the ASCII mirror, secp128r1 signature, PWD_AUTH; Ultralight EV1 the same without mirror.
    static func capabilities(of model: ChipModel) -> ChipCapabilities {
        ChipCapabilities(
            locks: [.lockBits], mirrors: model.isNTAG ? [.uidCounterASCII] : [], originalitySignature: .secp128r1,
            passwordProtection: true)
    }
}
