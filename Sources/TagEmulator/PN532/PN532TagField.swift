import NFCTags

/// The tags a PN532 front end can reach: what is in the field now, and the operator's hands
/// (control socket `insert`, `remove`, `dump`).
///
/// Not `Sendable`: the emulator drives its field from its own I/O thread only.
public protocol PN532TagField: AnyObject {
    /// The tag in the field now, if any.
    var current: (any TagEndpoint)? { get }

    /// The host released the current tag (InDeselect `44`, InRelease `52`). In line mode the tag
    /// leaves the field and the next one arrives.
    func hostReleased()

    /// Puts a tag into the field: a new blank one with `uid`, or the next of the population.
    ///
    /// - Returns: the UID of the tag now in the field.
    /// - Throws: `PN532ControlError` when no tag can be inserted (population used up, bad UID).
    func insert(uid: [UInt8]?) throws(PN532ControlError) -> [UInt8]

    /// Takes the current tag out of the field (no-op when empty).
    func remove()

    /// The full memory image of the current tag (every page, PWD/PACK as stored), or `nil`.
    func image() -> [UInt8]?

    /// The form `insert UID` takes: the UID of the population's chip (a FeliCa IDm).
    var uidForm: UIDForm { get }
}

extension PN532TagField {
    /// A field that says nothing holds 7-byte type A UIDs.
    public var uidForm: UIDForm { .sevenByteUID }
}

/// A control request the emulator cannot carry out; the message goes back to the client.
public struct PN532ControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words for the operator.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
