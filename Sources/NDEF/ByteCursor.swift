/// A read cursor over a byte array.
///
/// `read*` consumes bytes and advances `readerIndex`; `get*` looks at an absolute index without
/// moving. Running out of bytes returns `nil`; the caller decides whether that means "truncated".
public struct ByteCursor: Sendable {
    /// The whole buffer being read.
    public let bytes: [UInt8]
    /// Index of the next byte `read*` will consume.
    public private(set) var readerIndex = 0

    /// Creates a cursor at the start of `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Bytes left between the reader index and the end.
    public var readableBytes: Int { bytes.count - readerIndex }

    /// Reads one byte.
    public mutating func readUInt8() -> UInt8? {
        guard readableBytes >= 1 else { return nil }
        defer { readerIndex += 1 }
        return bytes[readerIndex]
    }

    /// Reads a big-endian `UInt16` (the length in a Type 2 3-byte TLV length field).
    public mutating func readUInt16BE() -> UInt16? {
        guard readableBytes >= 2 else { return nil }
        defer { readerIndex += 2 }
        return UInt16(bytes[readerIndex]) << 8 | UInt16(bytes[readerIndex + 1])
    }

    /// Reads a big-endian `UInt32` (the NDEF long-record payload length).
    public mutating func readUInt32BE() -> UInt32? {
        guard readableBytes >= 4 else { return nil }
        defer { readerIndex += 4 }
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 8 | UInt32(bytes[readerIndex + offset]) }
        return value
    }

    /// Reads `count` bytes.
    public mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, readableBytes >= count else { return nil }
        defer { readerIndex += count }
        return bytes[readerIndex..<readerIndex + count]
    }

    /// Moves the reader index forward by `count` bytes; `false` (and no move) if too few remain.
    @discardableResult
    public mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, readableBytes >= count else { return false }
        readerIndex += count
        return true
    }

    /// Looks at the byte at an absolute index.
    public func getUInt8(at index: Int) -> UInt8? {
        bytes.indices.contains(index) ? bytes[index] : nil
    }
}
