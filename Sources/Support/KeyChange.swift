/// One journaled ChangeKey of a tag (schema version 7, table `key_changes`): which key, from which version to
/// which, under which key id, with the old and new keys' fingerprints; never a key's bytes.
public struct KeyChange: Sendable, Hashable {
    /// Where the change stands.
    public enum State: String, Sendable, Hashable {
        /// Recorded durably before the ChangeKey was sent; not yet proven either way.
        case intended
        /// The tag proved it holds the new key (answer received, or authentication with it on resolution).
        case done
        /// The tag proved it still holds the old key; the change can be sent again.
        case abandoned
    }

    /// The tag.
    public var uid: [UInt8]
    /// The application key number, 0–4.
    public var keyNumber: Int
    /// The key version the tag had (and keeps if the change did not happen).
    public var oldVersion: Int
    /// The key version the change sets.
    public var newVersion: Int
    /// The id of the new key (`<master id>.K<n>`).
    public var keyID: String
    /// The old and new keys' fingerprints.
    public var oldFingerprint: String, newFingerprint: String
    /// Where the change stands.
    public var state: State

    /// Creates a journal entry.
    public init(
        uid: [UInt8], keyNumber: Int, oldVersion: Int, newVersion: Int, keyID: String, oldFingerprint: String,
        newFingerprint: String, state: State = .intended
    ) {
        self.uid = uid
        self.keyNumber = keyNumber
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.keyID = keyID
        self.oldFingerprint = oldFingerprint
        self.newFingerprint = newFingerprint
        self.state = state
    }
}
