/// A short ISO/IEC 7816-4 command APDU as an emulated tag parses it (cases 1–4, Lc ≤ 255, Le ≤ 256;
/// `docs/reference/type4.md` §1.2, §2.1): the header, the command data and Le.
struct ReceivedAPDU: Hashable {
    /// Class byte (`00` ISO, `90` native).
    let cla: UInt8
    /// Instruction.
    let ins: UInt8
    /// Parameter 1.
    let p1: UInt8
    /// Parameter 2.
    let p2: UInt8
    /// Command data (empty without Lc).
    let data: [UInt8]
    /// Expected answer length, 1–256 (`00` is 256); `nil` without Le.
    let le: Int?

    /// The header of any APDU of at least 4 bytes, with `data` and `le` parsed when the length is
    /// consistent; `lengthValid` is false for a body that matches no short case (extended APDUs included).
    static func parse(_ bytes: [UInt8]) -> (apdu: ReceivedAPDU, lengthValid: Bool)? {
        guard bytes.count >= 4 else { return nil }
        let body = bytes.count - 4
        var data: [UInt8] = []
        var le: Int?
        var valid = true
        if body == 1 {
            le = bytes[4] == 0 ? 256 : Int(bytes[4])
        } else if body > 1 {
            let lc = Int(bytes[4])
            if lc == 0 || (body != 1 + lc && body != 2 + lc) {
                valid = false
            } else {
                data = Array(bytes[5..<(5 + lc)])
                if body == 2 + lc { le = bytes[4 + 1 + lc] == 0 ? 256 : Int(bytes[4 + 1 + lc]) }
            }
        }
        return (ReceivedAPDU(cla: bytes[0], ins: bytes[1], p1: bytes[2], p2: bytes[3], data: data, le: le), valid)
    }
}
