/// The NFC Forum Type 2 Capability Container, page 3 (`docs/reference/type2.md` §2.4, §5.1).
public struct CapabilityContainer: Sendable, Hashable {
    /// The four CC bytes as read.
    public var bytes: [UInt8]

    /// Wraps four CC bytes; `nil` if `bytes` is not 4 bytes long.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == 4 else { return nil }
        self.bytes = bytes
    }

    /// CC0 is the NDEF magic number `E1`.
    public var hasNDEFMagic: Bool { bytes[0] == 0xE1 }
    /// Mapping version, major (CC1 high nibble).
    public var majorVersion: Int { Int(bytes[1] >> 4) }
    /// Mapping version, minor (CC1 low nibble).
    public var minorVersion: Int { Int(bytes[1] & 0x0F) }
    /// The data area size in bytes (CC2 × 8); it starts at byte 16 (page 4).
    public var dataAreaBytes: Int { Int(bytes[2]) * 8 }
    /// The first byte after the data area (16 + CC2 × 8).
    public var dataAreaEnd: Int { 16 + dataAreaBytes }
    /// Read access nibble (CC3 high): `0` free, `F` none, `8`–`E` proprietary.
    public var readAccess: UInt8 { bytes[3] >> 4 }
    /// Write access nibble (CC3 low): `0` free, `F` none, `8`–`E` proprietary.
    public var writeAccess: UInt8 { bytes[3] & 0x0F }

    /// Whether NDEF data can be read: magic `E1`, major version 1, read nibble `0`.
    public var isReadable: Bool { hasNDEFMagic && majorVersion == 1 && readAccess == 0 }
    /// Whether NDEF data may be written per the CC (write nibble `0`).
    public var isWritable: Bool { isReadable && writeAccess == 0 }
    /// Whether phones read the tag: CC3 is exactly `00` or `0F` (`docs/reference/type2.md` §5.1).
    public var isPhoneCompatible: Bool { bytes[3] == 0x00 || bytes[3] == 0x0F }
}
