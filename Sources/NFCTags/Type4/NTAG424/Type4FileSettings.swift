/// The settings of one StandardData file of a Type 4 application: its communication mode, its four
/// access rights and its SDM settings (NT4H2421Gx §8.2.3, `docs/reference/type4.md` §1.8, §2.7), as
/// GetFileSettings reports them and ChangeFileSettings changes them.
///
/// ```
/// access-rights word = Read << 12 | Write << 8 | ReadWrite << 4 | Change
/// on the wire (LSB first): byte0 = ReadWrite << 4 | Change, byte1 = Read << 4 | Write
/// ```
public struct Type4FileSettings: Sendable, Hashable {
    /// One access condition (an access-rights nibble).
    public enum Access: Sendable, Hashable {
        /// `0`–`4`: granted after authenticating with this application key.
        case key(UInt8)
        /// `E`: granted freely.
        case free
        /// `F`: never granted.
        case never

        /// The condition of one nibble; `5`–`D` (no such key) grant nothing, like `F`.
        public init(nibble: UInt8) {
            switch nibble & 0x0F {
            case 0x0E: self = .free
            case 0x00...0x04: self = .key(nibble & 0x0F)
            default: self = .never
            }
        }

        /// The nibble coding this condition.
        public var nibble: UInt8 {
            switch self {
            case .key(let number): number & 0x0F
            case .free: 0x0E
            case .never: 0x0F
            }
        }
    }

    /// The communication mode of ReadData/WriteData (FileOption bits 1–0).
    public enum CommunicationMode: UInt8, Sendable, Hashable {
        /// `00` (and `10`): plain.
        case plain = 0x00
        /// `01`: MAC'ed.
        case mac = 0x01
        /// `11`: fully enciphered.
        case full = 0x03
    }

    /// How ReadData/WriteData travel when a key right matched.
    public var communicationMode: CommunicationMode
    /// Read right.
    public var read: Access
    /// Write right.
    public var write: Access
    /// Read-and-write right (grants both).
    public var readWrite: Access
    /// Right to change these settings (ChangeFileSettings).
    public var change: Access
    /// Secure Dynamic Messaging (FileOption bit 6 and the SDM block), NTAG 424 DNA file 02 only; `nil`: off.
    public var sdm: Type4SDMSettings?

    /// Creates settings from their parts.
    public init(
        communicationMode: CommunicationMode, read: Access, write: Access, readWrite: Access, change: Access,
        sdm: Type4SDMSettings? = nil
    ) {
        self.communicationMode = communicationMode
        self.read = read
        self.write = write
        self.readWrite = readWrite
        self.change = change
        self.sdm = sdm
    }

    /// Creates settings from the 16-bit access-rights word (`Read<<12 | Write<<8 | RW<<4 | Change`).
    public init(communicationMode: CommunicationMode, accessRights word: UInt16, sdm: Type4SDMSettings? = nil) {
        self.init(
            communicationMode: communicationMode, read: Access(nibble: UInt8(word >> 12 & 0x0F)),
            write: Access(nibble: UInt8(word >> 8 & 0x0F)), readWrite: Access(nibble: UInt8(word >> 4 & 0x0F)),
            change: Access(nibble: UInt8(word & 0x0F)), sdm: sdm)
    }

    /// The 16-bit access-rights word.
    public var accessRights: UInt16 {
        UInt16(read.nibble) << 12 | UInt16(write.nibble) << 8 | UInt16(readWrite.nibble) << 4 | UInt16(change.nibble)
    }

    /// Whether ISOReadBinary may read without authentication: Read or ReadWrite is `E` (§1.8).
    public var freeRead: Bool { read == .free || readWrite == .free }
    /// Whether ISOUpdateBinary may write without authentication: Write or ReadWrite is `E` (§1.8).
    public var freeWrite: Bool { write == .free || readWrite == .free }
}
