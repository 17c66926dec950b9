/// Whether a tag holds NDEF data and whether it can be written, in Core NFC's terms.
public enum NDEFStatus: Sendable, Hashable {
    /// The tag is not NDEF formatted (no `E1` CC, unsupported version or access, no NDEF TLV).
    case notSupported
    /// The tag holds an NDEF TLV and may be written.
    case readWrite
    /// The tag holds an NDEF TLV and is read-only (CC write nibble `F` and/or lock bits).
    case readOnly
}
