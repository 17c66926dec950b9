import NFCTags

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
}

extension ReaderFactory {
    /// Every reader each backend can see right now: the simulator always (one entry per chip), then
    /// libnfc devices and PC/SC readers.
    ///
    /// EXTENSION POINT for the libnfc and PC/SC backends: replace the placeholder entry of your
    /// backend below with the devices it enumerates (`nfc_list_devices`, `SCardListReaders`), one
    /// `ReaderListing` per reader, with a `spec` that `open(_:)` accepts. Never throw: report a
    /// backend that cannot enumerate (no pcscd, no USB) as an entry with `available: false`.
    static func listReaders() async -> [ReaderListing] {
        var readers: [ReaderListing] = []
        for chip in ChipModel.allCases {
            let spec = "sim:\(chip.rawValue)"
            var note = "simulated \(chip.displayName), \(chip.pageCount) pages; tags arrive one after another"
            if spec == defaultSpec { note += " (the default reader)" }
            readers.append(ReaderListing(backend: "sim", spec: spec, name: spec, note: note, available: true))
        }
        // libnfc (ReaderLibNFC): enumerate PN53x devices here once the backend is wired into open(_:).
        readers.append(
            ReaderListing(
                backend: "nfc", spec: "nfc:CONNSTRING", name: "libnfc devices",
                note: "the nfc backend is not available in this build", available: false))
        // PC/SC (ReaderPCSC): enumerate pcscd's readers here once the backend is wired into open(_:).
        readers.append(
            ReaderListing(
                backend: "pcsc", spec: "pcsc:NAME", name: "PC/SC readers",
                note: "the pcsc backend is not available in this build", available: false))
        return readers
    }
}
