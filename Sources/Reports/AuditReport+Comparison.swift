import NDEF

/// A mismatch's expected records beside the records its tag holds, position by position, for the audit's text,
/// Markdown and HTML: one comparison, shown the same way everywhere.
extension AuditReport.Finding {
    /// The record the run wrote at one position and the one the tag holds there.
    public struct RecordPair: Sendable, Hashable {
        /// The 0-based position in the message.
        public var index: Int
        /// The record the run wrote there, `nil` when the tag holds more records.
        public var expected: RecordJSONObject?
        /// The record the tag holds there, `nil` when it holds fewer (or no message was read).
        public var found: RecordJSONObject?

        /// Whether the tag's record is not the one the run wrote.
        public var differs: Bool { expected != found }

        /// The expected record in words (`NDEFPayload.summaryLine`), or why there is none.
        public var expectedText: String { Self.text(expected, missing: "(no record: the tag holds more)") }

        /// The tag's record in words, or why there is none (`noMessage`: no message was read or it does not decode).
        public func foundText(noMessage: Bool) -> String {
            Self.text(found, missing: noMessage ? "(no NDEF message read)" : "(no record: the tag holds fewer)")
        }

        private static func text(_ object: RecordJSONObject?, missing: String) -> String {
            guard let object else { return missing }
            return (try? object.record())?.summaryLine ?? object.rendered
        }
    }

    /// The expected and found records position by position; `nil` when the finding has no expected records.
    public var recordPairs: [RecordPair]? {
        guard let expected else { return nil }
        let found = records ?? []
        return (0..<max(expected.count, found.count)).map { index in
            RecordPair(
                index: index, expected: index < expected.count ? expected[index] : nil,
                found: index < found.count ? found[index] : nil)
        }
    }

    /// The comparison as text lines, record by record, each labelled `expected:` and `on tag:` and marked
    /// `differs` or `same`; empty when the finding has no expected records.
    public var comparisonLines: [String] {
        guard let pairs = recordPairs else { return [] }
        var lines = ["expected records (what the run wrote) and what the tag holds:"]
        if pairs.isEmpty {
            lines.append("    expected: an empty message")
            lines.append("    on tag:   " + (records == nil ? "(no NDEF message read)" : "an empty message"))
        }
        for pair in pairs {
            lines.append("  record \(pair.index) " + (pair.differs ? "differs" : "same"))
            lines.append("    expected: " + pair.expectedText)
            lines.append("    on tag:   " + pair.foundText(noMessage: records == nil))
        }
        return lines
    }
}
