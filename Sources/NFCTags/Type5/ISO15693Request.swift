/// One ISO/IEC 15693-3 request as it goes to a VICC: `flags cmd [UID if addressed] params`, without the
/// CRC-16 (the reader adds and strips it, `docs/reference/type5.md` §1.3, §1.5).
///
/// ```
/// flags  cmd  UID (8 bytes, LSB first; only with the address flag)  params
/// 22     20   78 56 34 12 01 04 01 E0                                05      Read Single Block 5, addressed
/// ```
public struct ISO15693Request: Sendable, Hashable {
    /// Request flags, byte 0 of every request (`docs/reference/type5.md` §1.2, inventory flag clear).
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `01`: two sub-carriers.
        public static let twoSubcarriers = Flags(rawValue: 0x01)
        /// `02`: high data rate (26.48 kbit/s).
        public static let highDataRate = Flags(rawValue: 0x02)
        /// `04`: Inventory.
        public static let inventory = Flags(rawValue: 0x04)
        /// `08`: protocol extension (16-bit block numbers on some ST parts).
        public static let protocolExtension = Flags(rawValue: 0x08)
        /// `10`: select (only a SELECTED VICC answers).
        public static let select = Flags(rawValue: 0x10)
        /// `20`: address (the 8-byte UID follows the command code); with `inventory`: one slot.
        public static let address = Flags(rawValue: 0x20)
        /// `40`: option (meaning depends on the command, §1.7).
        public static let option = Flags(rawValue: 0x40)
    }

    /// The command codes this tool sends (`docs/reference/type5.md` §1.3).
    public enum Command: UInt8, Sendable, Hashable, CaseIterable {
        /// Inventory `01`.
        case inventory = 0x01
        /// Stay Quiet `02`.
        case stayQuiet = 0x02
        /// Read Single Block `20`.
        case readSingleBlock = 0x20
        /// Write Single Block `21`.
        case writeSingleBlock = 0x21
        /// Lock Block `22`.
        case lockBlock = 0x22
        /// Read Multiple Blocks `23`.
        case readMultipleBlocks = 0x23
        /// Select `25`.
        case select = 0x25
        /// Reset to Ready `26`.
        case resetToReady = 0x26
        /// Get System Information `2B`.
        case getSystemInformation = 0x2B
        /// Get Multiple Block Security Status `2C`.
        case getMultipleBlockSecurityStatus = 0x2C
        /// Extended Read Single Block `30` (2-byte block number, LSB first).
        case extendedReadSingleBlock = 0x30
        /// Extended Write Single Block `31`.
        case extendedWriteSingleBlock = 0x31
        /// Extended Lock Block `32`.
        case extendedLockBlock = 0x32
        /// Extended Read Multiple Blocks `33` (first block and count − 1, 2 bytes each, LSB first).
        case extendedReadMultipleBlocks = 0x33
        /// Extended Get System Information `3B`.
        case extendedGetSystemInformation = 0x3B
        /// Extended Get Multiple Block Security Status `3C` (first block and count − 1, 2 bytes each).
        case extendedGetMultipleBlockSecurityStatus = 0x3C

        /// Whether the command programs EEPROM (a write-alike of §1.7: option-flag rules, `tWrite`).
        public var isWriteAlike: Bool {
            [.writeSingleBlock, .lockBlock, .extendedWriteSingleBlock, .extendedLockBlock].contains(self)
        }
    }

    /// The flags byte.
    public var flags: Flags
    /// The command code.
    public var command: UInt8
    /// The VICC's UID in display order (`E0` first) when addressed; sent LSB first.
    public var uid: [UInt8]?
    /// Parameters after the command code (and UID).
    public var parameters: [UInt8]

    /// Creates a request; `uid` (display order) sets the address flag.
    public init(_ command: Command, flags: Flags = .highDataRate, uid: [UInt8]? = nil, parameters: [UInt8] = []) {
        self.flags = uid == nil ? flags : flags.union(.address)
        self.command = command.rawValue
        self.uid = uid
        self.parameters = parameters
    }

    /// The frame without CRC: flags, command, the UID LSB first when addressed, parameters.
    public var bytes: [UInt8] { [flags.rawValue, command] + (uid.map { Array($0.reversed()) } ?? []) + parameters }

    /// Parses a frame (no CRC), the VICC side: `nil` when it is shorter than its flags say.
    public init?(frame: [UInt8]) {
        guard frame.count >= 2 else { return nil }
        flags = Flags(rawValue: frame[0])
        command = frame[1]
        if flags.contains(.address) && !flags.contains(.inventory) {
            guard frame.count >= 10 else { return nil }
            uid = Array(frame[2..<10].reversed())
            parameters = Array(frame[10...])
        } else {
            uid = nil
            parameters = Array(frame[2...])
        }
    }
}
