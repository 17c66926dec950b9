/// A tag's permanent-lock state as its family reads it back (Type 2: CC3 and the static lock bytes).
public struct LockState: Sendable, Hashable {
    /// Whether the tag is permanently read-only the way `provision` locks it.
    public var isPermanent: Bool
    /// The lock fields as read, for the operator (`CC3 0F, static lock bytes FF FF`).
    public var fields: String
    /// Why the tag is not permanently read-only, one phrase each; empty when it is.
    public var openReasons: [String]

    /// Creates a lock state.
    public init(isPermanent: Bool, fields: String, openReasons: [String] = []) {
        self.isPermanent = isPermanent
        self.fields = fields
        self.openReasons = openReasons
    }
}
