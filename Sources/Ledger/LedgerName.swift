/// The one rule for names the ledger keys on and writes into reader names: job names (`"job"` in a manifest)
/// and station names (`--station`, the `STATION/` prefix of reader names): 1 to 64 of `A-Z a-z 0-9 . _ -`.
public enum LedgerName {
    /// The characters a name may use.
    public static let characters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")

    /// The rule in words, for error messages.
    public static let rule = "1 to 64 of A-Z a-z 0-9 . _ -"

    /// Whether `name` keeps the rule.
    public static func isValid(_ name: some StringProtocol) -> Bool {
        (1...64).contains(name.count) && name.allSatisfy { characters.contains($0) }
    }
}
