import NFCTags

/// What a run set in one tag's configuration, for `audit` to compare with what the tag holds: the
/// job's `protect` section (`ProtectionPlan`, as `run` writes it) and where the row's mirror token
/// landed (`MirrorPlan`). The tag's family does the comparison (`ChipConfiguration`), so this type
/// knows no chip field; fields a run leaves as it finds them are not compared.
public struct ExpectedConfiguration: Sendable, Hashable {
    /// The tag's protection as the run set it, if the job protects tags.
    public var protection: ProtectionPlan?
    /// Where the run put the mirror window, if the template has a mirror token.
    public var mirror: MirrorPlan?

    /// Creates the expectation; `nil` when there is nothing to compare.
    public init?(protection: ProtectionPlan?, mirror: MirrorPlan?) {
        guard protection != nil || mirror != nil else { return nil }
        self.protection = protection
        self.mirror = mirror
    }

    /// Every field of `found` that differs, in words, as the tag's family compares them: the datasheet
    /// name, the expected and the found value (upper-case hex), and the byte it sits in (Type 2:
    /// `AUTH0 expected 04, found FF (protection off)`, `AUTHLIM expected 5, found 3 (ACCESS 03)`).
    /// Empty when all match. Passwords are never shown.
    public func differences(in found: any ChipConfiguration) -> [String] {
        found.differences(protection: protection?.settings, mirror: mirror)
    }
}
