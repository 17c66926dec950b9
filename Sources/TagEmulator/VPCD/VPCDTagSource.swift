import NFCTags

/// The tags a vpcd virtual card can present: the population seen through the front end.
///
/// The emulator's `TagField` conforms; tests use small lists. Not `Sendable`: a source is created on,
/// and used only from, the virtual card's own thread.
public protocol VPCDTagSource: AnyObject {
    /// The tag in the field now, if any.
    var current: (any TagEndpoint)? { get }

    /// Line mode: the host is done with the current tag; it leaves and the next one arrives.
    ///
    /// - Returns: the new current tag, or `nil` when the population is used up.
    func advance() -> (any TagEndpoint)?

    /// Puts a tag in the field: the one with `uid` (created if new) or, for `nil`, the next of the
    /// population. A tag already in the field leaves first.
    ///
    /// - Throws: a message for the control socket when no tag can be inserted.
    func insert(uid: [UInt8]?) throws -> any TagEndpoint

    /// Takes the current tag out of the field (it stays in the population).
    func remove()

    /// A human-readable memory image of the current tag (the control socket's `dump`).
    func dump() -> String

    /// Whether the current tag left the field on its own (a tear fault); the card then closes the link.
    var currentHasLeft: Bool { get }

    /// The form `insert UID` takes: the UID of the population's chip (a FeliCa IDm).
    var uidForm: UIDForm { get }
}

extension VPCDTagSource {
    /// Sources without faults never lose a tag on their own.
    public var currentHasLeft: Bool { false }
    /// A source that says nothing holds 7-byte type A UIDs.
    public var uidForm: UIDForm { .sevenByteUID }
}

/// A control-socket failure message (`error: …`).
public struct VPCDControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for the control client.
    public var message: String

    /// Creates an error with `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
