/// A reader failing a command outside any one tag's work; `ErrorTable` gives each reason its exit code.
///
/// A reader that cannot be opened or stops, or a wait that brings no tag, is unavailable (69); a tag's own
/// transport failure inside the work is a `TransportError` instead, counted as a failed tag (1).
struct ReaderFailure: Error, Sendable, CustomStringConvertible {
    /// Why the reader failed the command.
    enum Reason: String, Sendable, CaseIterable {
        /// The reader could not be opened (no device, no pcscd, a driver that failed).
        case cannotOpen
        /// The reader failed while it was polled or worked on the line (unplugged, daemon gone).
        case stopped
        /// The simulated population is used up: no more tags will arrive.
        case exhausted
        /// No tag arrived within the command's `--timeout`.
        case idle
        /// The tag could not be released after the command's work.
        case releaseFailed
    }

    /// Why the reader failed.
    var reason: Reason
    /// The `error:` line, naming the reader.
    var message: String

    init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    var description: String { message }
}

/// A PostgreSQL ledger server that cannot be reached: unavailable (69), unlike a SQLite ledger file that
/// cannot be opened or created (`LedgerError.cannotOpen`, 73).
struct LedgerServerUnreachable: Error, Sendable, CustomStringConvertible {
    /// The `error:` line.
    var message: String

    /// The failure for the server's own words `detail` (`ledger server: …`), `server` naming it when given.
    init(_ detail: String, server: String? = nil) {
        message = "ledger server\(server.map { " \($0)" } ?? ""): \(detail)"
    }

    var description: String { message }
}
