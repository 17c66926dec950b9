#if canImport(Glibc)
    import Glibc
#endif

/// Raises a PN532's UART speed with SetSerialBaudRate before libnfc opens the port (libnfc 1.8.0
/// opens `pn532_uart:<port>:<speed>` at that speed but never sends the command itself).
///
/// At 115200 baud on the port: wake-up preamble and SAMConfiguration (normal mode), then
/// SetSerialBaudRate `10 BR`; the PN532 answers at the old speed and switches once the host has
/// sent an ACK frame (PN532 user manual §7.2.5). Every step waits at most `timeoutMilliseconds`.
enum PN532BaudSwitch {
    /// The speeds SetSerialBaudRate accepts, by its BR byte.
    static let speeds = [9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600, 1_288_000]

    /// Whether the chip on `port` (at 115200 baud) acknowledged and answered the switch to `speed`.
    static func raise(port: String, to speed: Int, timeoutMilliseconds: Int32 = 300) -> Bool {
        guard let rate = speeds.firstIndex(of: speed) else { return false }
        let descriptor = open(port, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return false }
        cfmakeraw(&settings)
        cfsetispeed(&settings, speed_t(B115200))
        cfsetospeed(&settings, speed_t(B115200))
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else { return false }
        tcflush(descriptor, TCIOFLUSH)
        let wakeUp: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0, count: 14)
        guard exchange(descriptor, wakeUp + frame([0xD4, 0x14, 0x01]), reply: 0x15, timeoutMilliseconds),
            exchange(descriptor, frame([0xD4, 0x10, UInt8(rate)]), reply: 0x11, timeoutMilliseconds)
        else { return false }
        guard send(descriptor, ack) else { return false }
        tcdrain(descriptor)
        return true
    }

    /// The host ACK frame.
    static let ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]

    /// A normal information frame around `payload` (`00 00 FF LEN LCS payload DCS 00`).
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        let length = UInt8(payload.count)
        return [0x00, 0x00, 0xFF, length, 0 &- length] + payload + [0 &- payload.reduce(0, &+), 0x00]
    }

    /// Whether `bytes` hold the chip's ACK followed by a complete reply frame `D5 code …`.
    static func holdsAnswer(_ bytes: [UInt8], code: UInt8) -> Bool {
        guard let ackEnd = range(of: ack, in: bytes, from: 0) else { return false }
        guard let start = range(of: [0x00, 0x00, 0xFF], in: bytes, from: ackEnd) else { return false }
        let head = start - 3
        guard bytes.count >= head + 7, bytes[head + 3] &+ bytes[head + 4] == 0 else { return false }
        let length = Int(bytes[head + 3])
        guard length >= 2, bytes.count >= head + 5 + length + 1 else { return false }
        let payload = Array(bytes[(head + 5)..<(head + 5 + length)])
        return payload[0] == 0xD5 && payload[1] == code && (payload.reduce(0, &+) &+ bytes[head + 5 + length]) == 0
    }

    /// The end index of the first occurrence of `needle` in `bytes` at or after `from`.
    private static func range(of needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = from
        while index + needle.count <= bytes.count {
            if Array(bytes[index..<(index + needle.count)]) == needle { return index + needle.count }
            index += 1
        }
        return nil
    }

    private static func exchange(_ descriptor: Int32, _ bytes: [UInt8], reply code: UInt8, _ timeoutMilliseconds: Int32)
        -> Bool
    {
        guard send(descriptor, bytes) else { return false }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var waited: Int32 = 0
        while waited < timeoutMilliseconds {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 10) > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 { received += buffer.prefix(count) }
                if holdsAnswer(received, code: code) { return true }
            } else {
                waited += 10
            }
        }
        return false
    }

    private static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        var attempts = 0
        while offset < bytes.count, attempts < 100 {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else {
                attempts += 1
                usleep(1_000)
            }
        }
        return offset == bytes.count
    }
}
