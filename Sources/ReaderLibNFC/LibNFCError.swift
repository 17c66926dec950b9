/// A failure to open or keep a libnfc reader (not a tag failure).
public struct LibNFCError: Error, Hashable, CustomStringConvertible {
    /// What kind of failure, stable for `switch` and tests.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The spec is not `nfc` or `nfc:<connstring>`.
        public static let badSpec = Code("badSpec")
        /// libnfc found no device (for `nfc` without a connstring) or cannot create a context.
        public static let noDevice = Code("noDevice")
        /// Another process (or handle) holds the device's lock.
        public static let deviceBusy = Code("deviceBusy")
        /// `nfc_open` failed.
        public static let openFailed = Code("openFailed")
        /// The device opened but did not answer its first real command, or init failed.
        public static let notResponding = Code("notResponding")
        /// The reader was closed.
        public static let closed = Code("closed")
        public var description: String { name }
    }

    /// The failure kind.
    public let code: Code
    /// What happened and what to do.
    public let message: String
    /// The libnfc status or system error underneath.
    public let cause: (any Error)?
    /// Where it was raised.
    public let location: String

    /// Creates an error.
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line)
    {
        self.code = code
        self.message = message
        self.cause = cause
        location = "\(fileID):\(line)"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { "\(code): \(message)" }
}
