import NDEF

/// An ISO/IEC 7816-4 command APDU in its short form (Lc ≤ 255, Le ≤ 256): what a Type 4 tag is sent
/// (`docs/reference/type4.md` §1.2). The NTAG 424 DNA speaks only short APDUs (§1.8).
public struct CommandAPDU: Sendable, Hashable, CustomStringConvertible {
    /// Class byte (`00` ISO, `90` NTAG 424 DNA native wrapping).
    public var cla: UInt8
    /// Instruction (`A4` SELECT, `B0` READ BINARY, `D6` UPDATE BINARY).
    public var ins: UInt8
    /// Parameter 1.
    public var p1: UInt8
    /// Parameter 2.
    public var p2: UInt8
    /// Command data (Lc is its length; empty: no Lc).
    public var data: [UInt8]
    /// Expected answer length, 1–256 (256 is sent as Le `00`); `nil`: no Le.
    public var le: Int?

    /// Creates an APDU.
    ///
    /// - Precondition: `data.count ≤ 255` and `le` in 1...256 when given (short APDUs only).
    public init(cla: UInt8 = 0x00, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: Int? = nil) {
        precondition(data.count <= 255, "short APDUs carry at most 255 data bytes")
        precondition(le.map { (1...256).contains($0) } ?? true, "Le is 1...256 in a short APDU")
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.le = le
    }

    /// The encoded APDU: header, then Lc and data when there is data, then Le when expected.
    public var bytes: [UInt8] {
        var bytes = [cla, ins, p1, p2]
        if !data.isEmpty {
            bytes.append(UInt8(data.count))
            bytes += data
        }
        if let le { bytes.append(UInt8(truncatingIfNeeded: le == 256 ? 0 : le)) }
        return bytes
    }

    public var description: String { Hex.string(bytes) }
}

/// An ISO/IEC 7816-4 response APDU: the data, then the status word SW1 SW2.
public struct ResponseAPDU: Sendable, Hashable {
    /// The response data (without the status word).
    public var data: [UInt8]
    /// The status word (`9000` success).
    public var status: UInt16

    /// Splits an answer into data and status word.
    ///
    /// - Throws: `TransportError.invalidResponse` for an answer shorter than a status word.
    public init(_ answer: [UInt8]) throws(TransportError) {
        guard answer.count >= 2 else {
            throw .invalidResponse("an R-APDU needs a status word, got \(answer.count) byte(s)")
        }
        data = Array(answer.dropLast(2))
        status = UInt16(answer[answer.count - 2]) << 8 | UInt16(answer[answer.count - 1])
    }

    /// Creates a response from its parts.
    public init(data: [UInt8] = [], status: UInt16) {
        self.data = data
        self.status = status
    }

    /// The encoded response: data, then SW1 SW2.
    public var bytes: [UInt8] { data + [UInt8(status >> 8), UInt8(status & 0xFF)] }
}
