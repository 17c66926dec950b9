import NDEF

/// The chip section of a Type 5 inspection: the UID's fields and Get System Information
/// (`docs/reference/type5.md` §1.1, §1.3); its JSON keys are `inspect --json`'s object for the section.
public struct Type5SystemSection: InspectionSection, Hashable {
    /// The UID's manufacturer code (ISO/IEC 7816-6) as hex, and its name when known.
    public var manufacturer: String, manufacturerName: String?
    /// The product/IC byte after it, as hex.
    public var productByte: String
    /// DSFID, AFI and the IC reference as hex, when Get System Information gave them.
    public var dsfid: String?, afi: String?, icReference: String?
    /// Block count and size, when Get System Information gave them.
    public var blocks: Int?, blockSize: Int?

    /// The section for `uid` (display order) and `information`.
    public init(uid: [UInt8], information: Type5SystemInformation?) {
        manufacturer = uid.count > 1 ? Hex.byte(uid[1]) : ""
        manufacturerName = uid.count > 1 ? Self.manufacturers[uid[1]] : nil
        productByte = uid.count > 2 ? Hex.byte(uid[2]) : ""
        dsfid = information?.dsfid.map(Hex.byte)
        afi = information?.afi.map(Hex.byte)
        icReference = information?.icReference.map(Hex.byte)
        (blocks, blockSize) = (information?.blockCount, information?.blockSize)
    }

    /// Manufacturer codes the reference names (§1.1).
    static let manufacturers: [UInt8: String] = [0x02: "ST", 0x04: "NXP", 0x07: "TI", 0x16: "EM", 0x67: "onsemi"]

    public var lines: [(label: String, text: String)] {
        var text = "manufacturer \(manufacturer)h" + (manufacturerName.map { " (\($0))" } ?? "")
        text += ", product byte \(productByte)h"
        guard blocks != nil || icReference != nil || dsfid != nil else {
            return [("System", text + "; no system information")]
        }
        let memory = blocks.map { count in "\(count) blocks of \(blockSize ?? 0) bytes" }
        let fields = [
            memory, icReference.map { "IC reference \($0)h" }, dsfid.map { "DSFID \($0)h" }, afi.map { "AFI \($0)h" },
        ]
        return [("System", text), ("", fields.compactMap { $0 }.joined(separator: ", "))]
    }
}

/// The lock section of a Type 5 inspection: the CC and the block security status of the CC and NDEF blocks
/// (`docs/reference/type5.md` §2.1, §2.6).
public struct Type5LockSection: InspectionSection, Hashable {
    /// The CC bytes as hex.
    public var cc: String
    /// Read and write access bits.
    public var readAccess: Int, writeAccess: Int
    /// MLEN and the T5T area after the CC (bytes, the smaller MLEN reading).
    public var mlen: Int, areaBytes: Int
    /// The feature bits in words.
    public var features: [String]
    /// The blocks read as locked, among `statusBlocks` (blocks 0 … the NDEF TLV's end).
    public var lockedBlocks: [Int], statusBlocks: Int

    /// The section for what detection found.
    public init(_ area: Type5NDEFArea) {
        let container = area.capabilityContainer
        cc = Hex.string(container.bytes)
        (readAccess, writeAccess) = (Int(container.readAccess), Int(container.writeAccess))
        (mlen, areaBytes) = (container.mlen, area.areaBytes)
        let names: [(UInt8, String)] = [
            (0x01, "MBREAD"), (0x02, "IPREAD"), (0x04, "MLEN overflow"), (0x08, "Lock Block"), (0x10, "special frame"),
        ]
        features = names.filter { container.features & $0.0 != 0 }.map(\.1)
        lockedBlocks = area.securityStatus.indices.filter { area.securityStatus[$0] & 0x01 != 0 }
        statusBlocks = area.securityStatus.count
    }

    public var lines: [(label: String, text: String)] {
        let access = writeAccess == 3 ? "write never" : writeAccess == 0 ? "write free" : "write access \(writeAccess)"
        let locked =
            lockedBlocks.isEmpty
            ? "none of blocks 0–\(statusBlocks - 1) locked"
            : "\(lockedBlocks.count) of blocks 0–\(statusBlocks - 1) locked"
        return [
            ("CC", "\(cc): \(access), MLEN \(mlen), T5T area \(areaBytes) bytes"),
            ("", "features " + (features.isEmpty ? "none" : features.joined(separator: ", "))),
            ("Locks", statusBlocks == 0 ? "block security status not read" : locked),
        ]
    }
}
