/// An NDEF message: one or more records, encoded back to back (NFC Forum NDEF 1.0 §3).
///
/// The encoder sets MB on the first record and ME on the last, uses the short form (SR, one length
/// byte) when a payload has at most 255 bytes, sets IL only when a record has an ID, and never chunks.
/// The decoder (`init(bytes:)`) is strict and reassembles chunked records into one logical record.
public struct NDEFMessage: Sendable, Hashable {
    /// The records, in order.
    public var records: [NDEFPayload]

    /// Creates a message (Core NFC's `init(records:)`).
    ///
    /// A message should hold at least one record; an empty list encodes as no bytes at all, which no
    /// decoder accepts.
    public init(records: [NDEFPayload]) {
        self.records = records
    }

    /// The encoded size in bytes (Core NFC's `length`).
    public var length: Int {
        records.reduce(0) { total, record in
            let type = min(record.type.count, 255)
            let id = min(record.identifier.count, 255)
            let header = 2 + (record.payload.count <= 255 ? 1 : 4) + (id > 0 ? 1 : 0)
            return total + header + type + id + record.payload.count
        }
    }

    /// The encoded message.
    ///
    /// ```
    /// header  MB(80) ME(40) CF(20) SR(10) IL(08) TNF(07)
    /// ```
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(length)
        for (index, record) in records.enumerated() {
            let type = record.type.prefix(255)
            let id = record.identifier.prefix(255)
            let short = record.payload.count <= 255
            var header = record.typeNameFormat.rawValue
            if index == 0 { header |= 0x80 }
            if index == records.count - 1 { header |= 0x40 }
            if short { header |= 0x10 }
            if !id.isEmpty { header |= 0x08 }
            out.append(header)
            out.append(UInt8(type.count))
            let count = UInt32(clamping: record.payload.count)
            if short {
                out.append(UInt8(count))
            } else {
                out += [
                    UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF),
                ]
            }
            if !id.isEmpty { out.append(UInt8(id.count)) }
            out += type
            out += id
            out += record.payload
        }
        return out
    }
}
