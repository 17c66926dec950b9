/// A family's own look at one tag for `provision inspect`: what the seam's NDEF operations do not show
/// (identification bytes, lock fields, configuration, originality signature, a memory dump), read
/// without a WRITE and handed back as family-neutral values.
public protocol Inspectable: AnyObject {
    /// Identifies the tag the family's way and reads everything it shows, with the fewest exchanges.
    /// With `password`, authenticates first so protected memory can be read; `dump` adds every unit
    /// the tag lets us read. Tag-level refusals become notes and errors in the result.
    ///
    /// - Throws: `TransportError` when the tag left the field or the reader failed.
    func inspect(anticollisionUID: [UInt8], dump: Bool, password: InspectionPassword?) throws -> TagInspection
}

/// The password an inspection authenticates with, derived from a job's key, and that key's id (never
/// the key) for the words of the result.
public struct InspectionPassword: Sendable, Hashable {
    /// The tag's password (Type 2: PWD).
    public var password: [UInt8]
    /// What the tag answers a correct password with (Type 2: PACK).
    public var acknowledge: [UInt8]
    /// The id of the key the password is derived from.
    public var keyID: String

    /// Creates a password.
    public init(password: [UInt8], acknowledge: [UInt8], keyID: String) {
        self.password = password
        self.acknowledge = acknowledge
        self.keyID = keyID
    }
}

extension FamilyTag {
    public var inspection: (any Inspectable)? { nil }
}
