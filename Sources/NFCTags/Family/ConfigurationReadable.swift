/// A chip's configuration memory read back without a WRITE, for an audit of a job that protects or
/// mirrors (NTAG21x: the dynamic lock page, CFG0 and CFG1).
public protocol ConfigurationReadable: AnyObject {
    /// Reads the configuration in as few exchanges as the chip allows.
    ///
    /// - Throws: `TagError` (e.g. `unknownChip`: the family cannot place it); `TransportError`, a NAK
    ///   when the configuration is read-protected.
    func readChipConfiguration() throws -> any ChipConfiguration
}

/// A chip's configuration as read, which its family compares with what a run sets: the audit judges
/// protection and mirror settings without knowing the chip's fields.
public protocol ChipConfiguration: Sendable {
    /// Every field that differs from `protection` and `mirror` as a run sets them, in words (the
    /// datasheet name, the expected and the found value); empty when all match. Never shows a password.
    func differences(protection: PasswordProtection?, mirror: MirrorPlan?) -> [String]
}

extension FamilyTag {
    public var configuration: (any ConfigurationReadable)? { nil }
}
