import Foundation

/// Reads a file (or a byte array, for tests) in fixed-size chunks, one byte at a time.
///
/// Only the current chunk is held, so memory stays flat however long the file is;
/// `peakBufferedBytes` records the most ever held, for tests that prove it.
/// Not Sendable: it owns a file handle and a read position.
final class ByteStream {
    private let handle: FileHandle?
    private let memory: [UInt8]
    private var memoryOffset = 0
    private var buffer: [UInt8] = []
    private var index = 0
    private var atEnd = false
    private let chunkSize: Int
    private let file: String
    /// The most bytes ever held in the buffer.
    private(set) var peakBufferedBytes = 0

    /// Opens `url` for chunked reading.
    init(url: URL, file: String, chunkSize: Int = 64 * 1024) throws(JobInputError) {
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw JobInputError.missing(file: file, url: url)
        }
        memory = []
        self.chunkSize = max(1, chunkSize)
        self.file = file
    }

    /// Streams `bytes` in chunks of `chunkSize` (1 drip-feeds).
    init(bytes: [UInt8], file: String, chunkSize: Int = 64 * 1024) {
        handle = nil
        memory = bytes
        self.chunkSize = max(1, chunkSize)
        self.file = file
    }

    deinit {
        try? handle?.close()
    }

    /// Makes at least `count` unread bytes available if the input has them; false at the end.
    private func fill(_ count: Int) throws(JobInputError) -> Bool {
        while buffer.count - index < count {
            if atEnd { return false }
            if index > 0 {
                buffer.removeFirst(index)
                index = 0
            }
            let chunk: [UInt8]
            if let handle {
                do {
                    chunk = Array(try handle.read(upToCount: chunkSize) ?? Data())
                } catch {
                    throw JobInputError(.fileMissing, file: file, "cannot read: \(error.localizedDescription)")
                }
            } else {
                let end = min(memory.count, memoryOffset + chunkSize)
                chunk = Array(memory[memoryOffset..<end])
                memoryOffset = end
            }
            if chunk.isEmpty {
                atEnd = true
                return false
            }
            buffer.append(contentsOf: chunk)
            peakBufferedBytes = max(peakBufferedBytes, buffer.count)
        }
        return true
    }

    /// The next byte without consuming it; `nil` at the end.
    func peek() throws(JobInputError) -> UInt8? {
        if index < buffer.count { return buffer[index] }
        guard try fill(1) else { return nil }
        return buffer[index]
    }

    /// Up to `count` upcoming bytes without consuming them.
    func peek(count: Int) throws(JobInputError) -> [UInt8] {
        _ = try fill(count)
        return Array(buffer[index..<min(buffer.count, index + count)])
    }

    /// Consumes and returns the next byte; `nil` at the end.
    func next() throws(JobInputError) -> UInt8? {
        if index < buffer.count {
            defer { index += 1 }
            return buffer[index]
        }
        guard try fill(1) else { return nil }
        defer { index += 1 }
        return buffer[index]
    }

    /// Consumes the run of ordinary bytes at the read position, appending them to `out`, and returns
    /// how many there were (refilling across chunk ends).
    ///
    /// Ordinary: ASCII other than NUL, `"` and LF; outside quotes (`quoted == false`) also other than
    /// `,` and CR. One pass over the chunk's memory: the CSV reader's inner loop for plain text.
    func takeRun(into out: inout [UInt8], quoted: Bool) throws(JobInputError) -> Int {
        var total = 0
        while try fill(1) {
            let start = index
            let end = buffer.withUnsafeBufferPointer { bytes in
                var cursor = start
                while cursor < bytes.count {
                    let byte = bytes[cursor]
                    guard byte != 0, byte < 0x80, byte != UInt8(ascii: "\""), byte != 0x0A,
                        quoted || (byte != UInt8(ascii: ",") && byte != 0x0D)
                    else { break }
                    cursor += 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<cursor]))
                return cursor
            }
            total += end - start
            index = end
            if end < buffer.count { break }
        }
        return total
    }

    /// Whether every byte has been consumed.
    func isAtEnd() throws(JobInputError) -> Bool { try peek() == nil }

    /// Skips a UTF-8 byte order mark (`EF BB BF`) at the current position, if there is one.
    func skipByteOrderMark() throws(JobInputError) {
        guard try peek(count: 3) == [0xEF, 0xBB, 0xBF] else { return }
        for _ in 0..<3 { _ = try next() }
    }
}

extension JobInputError {
    /// The error for a file that does not exist or cannot be opened.
    static func missing(file: String, url: URL) -> JobInputError {
        let exists = FileManager.default.fileExists(atPath: url.path)
        return JobInputError(.fileMissing, file: file, exists ? "cannot read the file" : "no such file")
    }
}
