import NFCTags

/// One StandardData file of a Type 4 application: its native file number, its ISO file identifier, its
/// bytes (fixed size) and its settings (`docs/reference/type4.md` §1.8).
///
/// The NTAG 424 DNA's three files:
///
/// ```
/// no.  FID   size  content            comm   Read Write RW Change
/// 01   E103   32   CC file            plain  E    0     0  0
/// 02   E104  256   NDEF file          plain  E    E     E  0
/// 03   E105  128   proprietary        full   2    3     3  0
/// ```
public struct Type4File: Sendable, Hashable {
    /// The native file number (`01`–`03` on the NTAG 424 DNA), used by ReadData/WriteData.
    public let number: UInt8
    /// The ISO file identifier (`E103`), used by ISOSelectFile.
    public let identifier: UInt16
    /// The file's contents; its count is the file size and never changes.
    public internal(set) var bytes: [UInt8]
    /// Communication mode, access rights and SDM settings.
    public var settings: Type4FileSettings
    /// SDMReadCtr (24 bits): unauthenticated read sequences of this file while SDM is on (§3.1).
    public internal(set) var sdmReadCounter: UInt32 = 0

    /// Whether ChangeFileSettings may enable SDM on this file (the NTAG 424 DNA's file 02 only, §2.7).
    public let supportsSDM: Bool

    /// Creates a file.
    public init(
        number: UInt8, identifier: UInt16, bytes: [UInt8], settings: Type4FileSettings, supportsSDM: Bool = false
    ) {
        self.number = number
        self.identifier = identifier
        self.bytes = bytes
        self.settings = settings
        self.supportsSDM = supportsSDM
    }

    /// The file size in bytes.
    public var size: Int { bytes.count }
}
