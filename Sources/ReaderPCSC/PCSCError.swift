/// A failure opening or listing PC/SC readers (spec, service or reader problems), as opposed to a
/// `TransportError` during a tag cycle.
public struct PCSCError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, switchable error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// pcscd is not running or not reachable (`SCARD_E_NO_SERVICE`): exit 69.
        public static let noService = Code("noService")
        /// No reader is connected: exit 69.
        public static let noReaders = Code("noReaders")
        /// No reader matches the spec's name or index: exit 69.
        public static let readerNotFound = Code("readerNotFound")
        /// The spec itself is wrong (scheme, option, style): exit 64.
        public static let badSpec = Code("badSpec")
        /// Any other pcsc-lite failure.
        public static let failure = Code("failure")
        public var description: String { name }
    }

    /// What kind of failure.
    public let code: Code
    /// What happened and what to do.
    public let message: String
    /// The pcsc-lite status underneath, if any.
    public let status: PCSCStatus?

    /// Creates an error.
    public init(_ code: Code, _ message: String, status: PCSCStatus? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    /// Wraps a pcsc-lite status from `action` ("listing readers").
    static func from(_ status: PCSCStatus, while action: String) -> PCSCError {
        if status == .noService || status == .serviceStopped {
            return PCSCError(.noService, "pcscd is not running (\(status)) while \(action)", status: status)
        }
        return PCSCError(.failure, "PC/SC error while \(action): \(status)", status: status)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { message }
}
