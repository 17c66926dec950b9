import NDEF

/// The chip section of a Type 4 inspection: the ATS decoded and the GetVersion fields
/// (`docs/reference/type4.md` §1.1, §2.3); its JSON keys are `inspect --json`'s object for the section.
public struct Type4ChipSection: InspectionSection, Hashable {
    /// One GetVersion part in its fields.
    public struct VersionPart: Encodable, Sendable, Hashable {
        /// Vendor, type, subtype, major, minor as hex; storage in words; protocol type as hex.
        public var vendor, type, subtype, version, storage, protocolType: String

        init(_ part: Type4Version.Part) {
            (vendor, type, subtype) = (Hex.byte(part.vendor), Hex.byte(part.type), Hex.byte(part.subtype))
            version = "\(Hex.byte(part.major)).\(Hex.byte(part.minor))"
            (storage, protocolType) = (part.storageDescription, Hex.byte(part.protocolType))
        }

        var text: String {
            "vendor \(vendor)h, type \(type)h, subtype \(subtype)h, version \(version), \(storage), "
                + "protocol \(protocolType)h"
        }
    }

    /// The ATS as hex (TL first); `nil` when the reader reported none.
    public var ats: String?
    /// FSCI and the frame size it selects (bytes).
    public var fsci: Int?, frameSize: Int?
    /// TA1, TB1, TC1 as hex, when present.
    public var ta1: String?, tb1: String?, tc1: String?
    /// TA1 in words.
    public var bitRates: String?
    /// FWI and FWT in microseconds.
    public var fwi: Int?, fwtMicroseconds: Double?
    /// SFGI and SFGT in microseconds.
    public var sfgi: Int?, sfgtMicroseconds: Double?
    /// CID and NAD support.
    public var cidSupported: Bool?, nadSupported: Bool?
    /// The ATS historical bytes as hex.
    public var historicalBytes: String?
    /// GetVersion part 1 and part 2, when the tag answered it completely.
    public var hardware: VersionPart?, software: VersionPart?
    /// GetVersion part 3: UID, batch, production week and year (hex), FabKeyID.
    public var versionUID: String?, batch: String?, week: String?, year: String?, fabKeyID: String?

    /// The section from the activation's ATS and the GetVersion answer.
    public init(ats: [UInt8], version: Type4Version?) {
        if let decoded = Type4ATS(ats), !ats.isEmpty {
            self.ats = Hex.string(ats)
            (fsci, frameSize) = (decoded.fsci, decoded.frameSize)
            (ta1, tb1, tc1) = (decoded.ta1.map(Hex.byte), decoded.tb1.map(Hex.byte), decoded.tc1.map(Hex.byte))
            bitRates = decoded.bitRates
            (fwi, fwtMicroseconds) = (decoded.fwi, (decoded.frameWaitingMicroseconds * 100).rounded() / 100)
            (sfgi, sfgtMicroseconds) = (decoded.sfgi, (decoded.startupGuardMicroseconds * 100).rounded() / 100)
            (cidSupported, nadSupported) = (decoded.cidSupported, decoded.nadSupported)
            historicalBytes = Hex.string(decoded.historicalBytes)
        } else if !ats.isEmpty {
            self.ats = Hex.string(ats)
        }
        if let version {
            (hardware, software) = (VersionPart(version.hardware), VersionPart(version.software))
            (versionUID, batch) = (Hex.string(version.uid), Hex.string(version.batch))
            (week, year, fabKeyID) = (Hex.byte(version.week), Hex.byte(version.year), version.fabKeyID.map(Hex.byte))
        }
    }

    public var lines: [(label: String, text: String)] {
        var out: [(label: String, text: String)] = []
        if let ats, let fsci, let frameSize, let fwi, let fwt = fwtMicroseconds, let sfgi, let sfgt = sfgtMicroseconds {
            out.append(("ATS", "\(ats): FSCI \(fsci) (FSC \(frameSize) bytes), \(bitRates ?? "")"))
            let milliseconds = (fwt / 10).rounded() / 100
            out.append(("", "FWI \(fwi) (FWT \(milliseconds) ms), SFGI \(sfgi) (SFGT \(Int(sfgt.rounded())) µs)"))
            let cid = cidSupported == true ? "CID supported" : "no CID"
            let nad = nadSupported == true ? "NAD supported" : "no NAD"
            out.append(
                ("", "\(cid), \(nad), historical bytes \(historicalBytes.map { $0.isEmpty ? "none" : $0 } ?? "none")"))
        } else {
            out.append(("ATS", ats.map { "\($0) (not a well-formed ATS)" } ?? "not reported by the reader"))
        }
        if let hardware, let software {
            out.append(("GetVersion", "HW " + hardware.text))
            out.append(("", "SW " + software.text))
            let fab = fabKeyID.map { ", FabKeyID \($0)" } ?? ""
            out.append(
                ("", "UID \(versionUID ?? ""), batch \(batch ?? ""), week \(week ?? ""), year \(year ?? "")\(fab)"))
        }
        return out
    }
}

/// The file section of a Type 4 inspection: the CC's fields, the proprietary file TLVs and NLEN
/// (`docs/reference/type4.md` §1.3); it fills the report's lock slot, since the CC's access bytes are the lock state.
public struct Type4FileSection: InspectionSection, Hashable {
    /// One file control TLV in words.
    public struct FileControl: Encodable, Sendable, Hashable {
        /// The file identifier (hex), its size, and its read and write access in words.
        public var file: String, size: Int, readAccess: String, writeAccess: String
    }

    /// The CC as hex (CCLEN bytes).
    public var cc: String
    /// The mapping version (`2.0`).
    public var version: String
    /// MLe and MLc.
    public var mle: Int, mlc: Int
    /// The NDEF file (or ENDEF file of mapping 3.0).
    public var ndefFile: FileControl
    /// Whether the NDEF file starts with a 4-byte ENLEN.
    public var extendedLength: Bool
    /// The proprietary file TLVs.
    public var proprietaryFiles: [FileControl]
    /// NLEN (ENLEN) as read; `nil` when it could not be read.
    public var nlen: Int?

    /// The section from a parsed CC and the length field as read.
    public init(_ container: Type4CapabilityContainer, nlen: Int?) {
        func hex(_ file: UInt16) -> String { Hex.compact([UInt8(file >> 8), UInt8(file & 0xFF)]) }
        cc = Hex.string(container.bytes)
        version = "\(container.version >> 4).\(container.version & 0x0F)"
        (mle, mlc) = (container.maxResponseData, container.maxCommandData)
        ndefFile = FileControl(
            file: hex(container.ndefFile), size: container.ndefFileSize, readAccess: "\(container.readAccess)",
            writeAccess: "\(container.writeAccess)")
        extendedLength = container.extendedLength
        proprietaryFiles = container.proprietaryFiles.map {
            FileControl(
                file: hex($0.file), size: $0.size, readAccess: "\($0.readAccess)", writeAccess: "\($0.writeAccess)")
        }
        self.nlen = nlen
    }

    public var lines: [(label: String, text: String)] {
        let kind = extendedLength ? "ENDEF" : "NDEF"
        var out: [(label: String, text: String)] = [
            ("CC", "\(cc): mapping \(version), MLe \(mle), MLc \(mlc)"),
            (
                "",
                "\(kind) file \(ndefFile.file), \(ndefFile.size) bytes, read \(ndefFile.readAccess), "
                    + "write \(ndefFile.writeAccess)"
            ),
        ]
        for file in proprietaryFiles {
            let access = "read \(file.readAccess), write \(file.writeAccess)"
            out.append(("", "proprietary file \(file.file), \(file.size) bytes, \(access)"))
        }
        out.append(("", "\(extendedLength ? "ENLEN" : "NLEN") \(nlen.map(String.init) ?? "not read")"))
        return out
    }
}
