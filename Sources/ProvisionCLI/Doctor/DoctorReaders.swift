import NFCTags
import ReaderPCSC

/// The reader checks of `provision doctor`: `readers` (what the libnfc and PC/SC backends see, from
/// the same listing as `provision readers`) and `tag-families` (what each of them can reach).
enum DoctorReaders {
    /// What the backends answered; `nil` where a listing did not finish within its bound.
    struct Findings: Sendable {
        /// libnfc's listing (`ReaderFactory.nfcListings`).
        var nfc: [ReaderListing]?
        /// pcsc-lite's answer to `SCardListReaders`.
        var pcsc: Result<[String], PCSCError>?

        /// The readers found, libnfc first.
        var found: [ReaderListing] {
            (nfc ?? []).filter(\.available) + pcscListings.filter(\.available)
        }

        /// The PC/SC listing as `provision readers` shows it (empty when it timed out).
        var pcscListings: [ReaderListing] { pcsc.map(ReaderFactory.pcscListings) ?? [] }
    }

    /// Lists the readers of both backends, each listing bounded by `DoctorProbe.librarySeconds`.
    static func probe() async -> Findings {
        async let nfc = DoctorProbe.bounded(seconds: DoctorProbe.librarySeconds) { ReaderFactory.nfcListings() }
        async let pcsc = DoctorProbe.bounded(seconds: DoctorProbe.librarySeconds) {
            Result { () throws(PCSCError) in try PCSCReader.listReaders() }
        }
        return await Findings(nfc: nfc, pcsc: pcsc)
    }

    /// `readers`: ok with at least one reader, warn with none (only the simulator can run jobs).
    static func readersCheck(_ findings: Findings) -> DoctorCheck {
        var problems: [String] = []
        let seconds = DoctorProbe.describe(DoctorProbe.librarySeconds)
        if findings.nfc == nil { problems.append("the libnfc device scan did not answer within \(seconds)") }
        if findings.pcsc == nil { problems.append("pcscd did not answer within \(seconds)") }
        let found = findings.found
        guard found.isEmpty else {
            let names = found.map { $0.backend == "pcsc" ? "\($0.spec) (\($0.name))" : $0.spec }
            var detail = "\(found.count) reader\(found.count == 1 ? "" : "s"): " + names.joined(separator: ", ")
            if !problems.isEmpty { detail += "; " + problems.joined(separator: "; ") }
            return DoctorCheck(name: "readers", status: problems.isEmpty ? .ok : .warn, detail: detail)
        }
        let notes = ((findings.nfc ?? []) + findings.pcscListings).map { "\($0.name): \($0.note)" }
        return DoctorCheck(
            name: "readers", status: .warn,
            detail: "no reader found (" + (notes + problems).joined(separator: "; ") + "); only the simulator "
                + "(--reader sim:CHIP) can run jobs: connect a reader and check 'provision readers', or name a "
                + "serial PN532 with --reader nfc:pn532_uart:/dev/ttyUSB0")
    }

    /// `tag-families`: which tag families each reader found can reach (Type 2 on all of them, Type 4 on PC/SC),
    /// one `; `-separated part per reader, the simulator last.
    static func familiesCheck(_ findings: Findings) -> DoctorCheck {
        var parts = findings.found.map { reader in
            reader.backend == "nfc"
                ? "\(reader.spec): " + nfcFamilies
                : "\(reader.spec) (\(reader.name)): " + pcscFamilies + "; Type 5 (ISO 15693): "
                    + ReaderFactory.type5Reach(PCSCReaderStyle(readerName: reader.name)).1 + "; Type 3 (FeliCa): "
                    + ReaderFactory.type3Reach(PCSCReaderStyle(readerName: reader.name))
        }
        if parts.isEmpty {
            parts = [
                "no reader to check; a libnfc (PN532) reader reaches " + nfcFamilies
                    + "; a PC/SC reader reaches " + pcscFamilies
            ]
        }
        parts.append("sim: " + ChipLists.simulated)
        return DoctorCheck(name: "tag-families", status: .ok, detail: parts.joined(separator: "; "))
    }

    /// What a PN53x reader driven by libnfc reaches: the families of its transports
    /// (`ReaderListing.libnfcTransports`), and the others it cannot.
    static var nfcFamilies: String {
        let transports = ReaderListing.libnfcTransports
        let reached = TagFamilies.standard.reached(by: transports).map { family in
            let speeds = family.transport == .feliCa ? " at 212 and 424 kbit/s" : ""
            return "\(family.displayName) (\(family.transport)\(speeds))"
        }
        let missed = TagFamilies.standard.families.filter { !transports.contains($0.transport) }
        return ChipLists.joined(reached) + ", not "
            + ChipLists.joined(missed.map { "\($0.transport) (\($0.displayName))" })
            + ": the PN532 and libnfc cannot reach it"
    }

    /// What a PC/SC reader reaches.
    static let pcscFamilies =
        "Type 2 through PC/SC (ISO 14443-A) and Type 4 (ISO-DEP; told by the ATR, APDUs passed unchanged), "
        + "Type 5 (ISO 15693) on readers with a 15693 front end (ACR1552U, OMNIKEY 5022/5427), Type 3 (FeliCa) on "
        + "ACR122U and ACR1252U by direct transmit, other families only as far as the reader itself supports them"
}
