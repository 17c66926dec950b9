import NFCTags
import ReaderLibNFC
import ReaderPCSC

/// One reader a backend can see, as `provision readers` lists it.
struct ReaderListing: Sendable, Hashable, Codable {
    /// The backend (`sim`, `nfc`, `pcsc`).
    var backend: String
    /// A spec that opens this reader with `--reader`.
    var spec: String
    /// The reader's name as its backend reports it.
    var name: String
    /// What it offers, or why it is not usable.
    var note: String
    /// Whether `--reader spec` would open it now.
    var available: Bool
    /// The tag families this reader path reaches (`type2`, `type3`, `type4`, `type5`): those whose transport
    /// (`TagFamily.transport`) the backend reaches.
    var reaches: [String] = []
    /// Whether it reaches Type 5 (ISO 15693) tags: `transparent` (lock included), `storage` (FF B0/FF D6
    /// only, no lock), `no`; absent for entries that are no reader.
    var type5: String? = nil

    /// The families a backend reaching `transports` serves, by name, in the order of `transports`.
    static func reach(_ transports: [Transport]) -> [String] {
        TagFamilies.standard.reached(by: transports).map(\.name)
    }

    /// What a libnfc (PN53x) reader reaches: ISO/IEC 14443-A, ISO-DEP and FeliCa; a PN532 has no ISO/IEC 15693.
    static let libnfcTransports: [Transport] = [.iso14443A, .isoDEP, .feliCa]
    static var libnfcReach: [String] { reach(libnfcTransports) }
    static var libnfcLimits: String {
        let reached = TagFamilies.standard.reached(by: libnfcTransports)
        let missed = TagFamilies.standard.families.filter { !libnfcTransports.contains($0.transport) }
        return "reaches "
            + ChipLists.joined(
                reached.map { $0.displayName + ($0.transport == .feliCa ? " (FeliCa, 212/424 kbit/s)" : "") })
            + "; not " + ChipLists.joined(missed.map { "\($0.displayName) (no \($0.transport))" })
    }

    /// What a PC/SC reader reaches: ISO/IEC 14443-A and ISO-DEP always, FeliCa on the styles with a direct
    /// transmit path, ISO/IEC 15693 on the styles with a 15693 front end.
    static func pcscTransports(feliCa: Bool = false, iso15693: Bool = false) -> [Transport] {
        [.iso14443A, .isoDEP] + (feliCa ? [.feliCa] : []) + (iso15693 ? [.iso15693] : [])
    }
}

extension ReaderFactory {
    /// Every reader each backend can see right now: the simulator always (one entry per simulated chip the
    /// families publish, `ChipDescriptor.simulatorName`), then libnfc devices and PC/SC readers.
    ///
    /// EXTENSION POINT for further backends: add a `<backend>Listings()` below that enumerates its
    /// readers, one `ReaderListing` each with a `spec` that `open(_:)` accepts, and append it here.
    /// Never throw: report a backend that cannot enumerate (no pcscd, no USB) as one entry with
    /// `available: false` and the reason.
    static func listReaders() async -> [ReaderListing] {
        var readers: [ReaderListing] = []
        for descriptor in TagFamilies.standard.descriptors {
            guard let name = descriptor.simulatorName, let family = TagFamilies.standard.named(descriptor.family)
            else { continue }
            let spec = "sim:\(name)"
            let chip = descriptor.isFamilyWide ? "generic \(family.displayName) tag" : descriptor.displayName
            var note = "simulated \(chip) (\(family.displayName), \(family.transport))"
            if let bytes = descriptor.userMemory { note += ", \(bytes) bytes of user memory" }
            note += "; tags arrive one after another"
            if spec == defaultSpec { note += " (the default reader)" }
            // Each simulated chip is one reader path, reaching its own family's transport.
            readers.append(
                ReaderListing(
                    backend: "sim", spec: spec, name: spec, note: note, available: true,
                    reaches: ReaderListing.reach([family.transport])))
        }
        readers += nfcListings()
        readers += pcscListings()
        return readers
    }
}

extension ReaderFactory {
    /// libnfc devices (`nfc_list_devices`, no intrusive scan); one unavailable entry when none.
    static func nfcListings() -> [ReaderListing] {
        let devices = LibNFCReader.listDevices()
        guard !devices.isEmpty else {
            return [
                ReaderListing(
                    backend: "nfc", spec: "nfc:CONNSTRING", name: "libnfc",
                    note: "no device found (name one explicitly, e.g. nfc:pn532_uart:/dev/ttyUSB0); "
                        + ReaderListing.libnfcLimits,
                    available: false, reaches: ReaderListing.libnfcReach)
            ]
        }
        return devices.map {
            ReaderListing(
                backend: "nfc", spec: "nfc:" + $0, name: $0, note: "libnfc device; " + ReaderListing.libnfcLimits,
                available: true, reaches: ReaderListing.libnfcReach, type5: "no")
        }
    }

    /// PC/SC readers known to pcscd (`SCardListReaders`); one unavailable entry when there are none.
    static func pcscListings() -> [ReaderListing] {
        pcscListings(Result { () throws(PCSCError) in try PCSCReader.listReaders() })
    }

    /// The listing of what `PCSCReader.listReaders()` returned: the readers, or one unavailable entry
    /// with the reason (`provision doctor` also judges pcscd by the same answer).
    static func pcscListings(_ answer: Result<[String], PCSCError>) -> [ReaderListing] {
        let names: [String]
        switch answer {
        case .success(let found):
            names = found
        case .failure(let error):
            return [
                ReaderListing(
                    backend: "pcsc", spec: "pcsc:NAME", name: "PC/SC", note: error.message, available: false,
                    reaches: ReaderListing.reach(ReaderListing.pcscTransports()))
            ]
        }
        guard !names.isEmpty else {
            return [
                ReaderListing(
                    backend: "pcsc", spec: "pcsc:NAME", name: "PC/SC", note: "pcscd knows no reader", available: false,
                    reaches: ReaderListing.reach(ReaderListing.pcscTransports()))
            ]
        }
        return names.enumerated().map { index, name in
            let style = PCSCReaderStyle(readerName: name)
            let (type5, reach) = type5Reach(style)
            let type3 = style.feliCaDirectTransmit != nil
            return ReaderListing(
                backend: "pcsc", spec: "pcsc:#\(index)", name: name,
                note: "PC/SC reader \(index) (pcsc:\(name)), style \(style); Type 5 (ISO 15693): \(reach); "
                    + "Type 3 (FeliCa): \(type3Reach(style))",
                available: true,
                reaches: ReaderListing.reach(ReaderListing.pcscTransports(feliCa: type3, iso15693: type5 != "no")),
                type5: type5)
        }
    }

    /// How a PC/SC reader of `style` reaches Type 3 (FeliCa) tags: by direct transmit on the ACR122U and the
    /// ACR1252U (`FeliCaDirectTransmit`), not at all on the other styles.
    static func type3Reach(_ style: PCSCReaderStyle) -> String {
        switch style.feliCaDirectTransmit {
        case .pn532: "yes, PN532 InDataExchange by direct transmit (FF 00 00 00 … D4 40 01)"
        case .bareFrame: "yes, the bare frame by direct transmit (FF 00 00 00 Lc <frame>)"
        case nil: "no FeliCa path on this style (?style=acr122u or acr1252u if the reader is one, or nfc:)"
        }
    }

    /// How a PC/SC reader of `style` reaches Type 5 tags (`docs/reference/type5.md` §3.5): the `--json` value and
    /// the words for the note.
    static func type5Reach(_ style: PCSCReaderStyle) -> (String, String) {
        if !style.readsISO15693 { return ("no", "no, a PN53x-class front end cannot reach it") }
        if style.reachesRawISO15693 { return ("transparent", "yes, by transparent exchange (FF C2), lock included") }
        return ("storage", "read and write by FF B0/FF D6 only, no lock (?style=acr1552u or omnikey if it has FF C2)")
    }
}
