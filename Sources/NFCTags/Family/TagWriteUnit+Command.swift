extension TagWriteUnit {
    /// The command that writes the units, where output names it next to them (`write`'s summary), else `nil`.
    public var writeCommandNote: String? {
        switch self {
        case .fileOffset: "UPDATE BINARY of the NDEF file"
        case .page, .block: nil
        }
    }

    /// Whether the NDEF message sits in a file behind its length field (NLEN), not in a TLV area.
    public var holdsNDEFFile: Bool { self == .fileOffset }
}
