/// One row of a job to insert as `pending`: its number, source fields and rendered message digest.
public struct RowInput: Sendable, Hashable {
    /// The row number within the job (stable across runs; claims take the lowest pending first).
    public var row: Int
    /// The source fields of the row (stored as a JSON object with sorted keys).
    public var fields: [String: String]
    /// SHA-256 of the rendered NDEF message (32 bytes).
    public var messageSHA256: [UInt8]
    /// Length of the rendered NDEF message in bytes.
    public var messageLength: Int

    /// Creates a row.
    public init(row: Int, fields: [String: String], messageSHA256: [UInt8], messageLength: Int) {
        self.row = row
        self.fields = fields
        self.messageSHA256 = messageSHA256
        self.messageLength = messageLength
    }
}
