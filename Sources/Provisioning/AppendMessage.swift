import NDEF

/// Read-modify-write (Core NFC's NeatoCache pattern): new records added after a tag's existing ones.
public enum AppendMessage {
    /// The message `original` (raw NDEF message bytes, `[]` for an empty tag) followed by the records of
    /// `new`, encoded as one message (MB on the first record, ME on the last).
    ///
    /// - Throws: `CycleFailure` `.notNDEF` when `original` is not a well-formed NDEF message (an append
    ///   would otherwise destroy content it cannot carry over).
    public static func combine(original: [UInt8], new: [UInt8]) throws(CycleFailure) -> [UInt8] {
        guard !original.isEmpty else { return new }
        do {
            let existing = try NDEFMessage(bytes: original)
            let added = try NDEFMessage(bytes: new)
            return NDEFMessage(records: existing.records + added.records).bytes
        } catch {
            throw CycleFailure(
                .notNDEF, phase: .identify,
                "the tag's existing content is not a well-formed NDEF message (\(error)); an append would lose it")
        }
    }
}
