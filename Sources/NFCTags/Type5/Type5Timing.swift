/// ISO/IEC 15693 airtime at the high data rate (26.48 kbit/s both ways), in microseconds
/// (`docs/reference/type5.md` §1.8).
///
/// ```
/// reader frame  T_req(n)  = 75.52 (SOF) + 302.08·n + 37.76 (EOF)
/// tag frame     T_resp(n) = 151.04 (SOF) + 302.08·n + 151.04 (EOF)
/// t1 = 4352/fc ≈ 320.9 µs (request EOF → answer SOF), t2 ≥ 4192/fc ≈ 309.1 µs (answer → next request)
/// ```
/// `n` counts every byte of the frame, CRC-16 included; the methods take bytes **without** CRC. A write-alike
/// with the option flag clear answers at `t1 + ceil(tWrite / 302.08)·302.08` (§1.8).
public struct Type5Timing: Sendable, Hashable {
    /// One byte either way at the high rate: 4096/fc ≈ 302.08 µs.
    public var byteMicroseconds = 4096.0 / 13.56
    /// Request SOF 75.52 µs plus EOF 37.76 µs.
    public var requestFraming = 1024.0 / 13.56 + 512.0 / 13.56
    /// Answer SOF and EOF, 151.04 µs each.
    public var answerFraming = 2 * 2048.0 / 13.56
    /// t1, nominal: 4352/fc.
    public var t1 = 4352.0 / 13.56
    /// t2, minimum: 4192/fc.
    public var t2 = 4192.0 / 13.56
    /// EEPROM programming time of one write-alike (`tWrite`, 4–6 ms, `[UNV]` per chip).
    public var writeMicroseconds: Double

    /// Creates the model with `writeMicroseconds` of programming per write-alike (default 5 ms).
    public init(writeMicroseconds: Double = 5_000) {
        self.writeMicroseconds = writeMicroseconds
    }

    /// A reader frame of `n` bytes without CRC.
    public func request(bytes n: Int) -> Double { requestFraming + byteMicroseconds * Double(n + 2) }
    /// A tag frame of `n` bytes without CRC.
    public func answer(bytes n: Int) -> Double { answerFraming + byteMicroseconds * Double(n + 2) }
    /// One exchange: request, t1, answer, t2.
    public func exchange(request: Int, answer: Int) -> Double {
        self.request(bytes: request) + t1 + self.answer(bytes: answer) + t2
    }
    /// A write-alike (option flag clear): programming delays the answer by whole 302.08 µs steps.
    public func write(request: Int, answer: Int) -> Double {
        exchange(request: request, answer: answer) + (writeMicroseconds / byteMicroseconds).rounded(.up)
            * byteMicroseconds
    }
    /// A request nobody answers: the request and the no-response wait (FDT_V,INVENT_NORES ≈ 475 µs).
    public func unanswered(request: Int) -> Double { self.request(bytes: request) + (4394.0 + 2048.0) / 13.56 }
    /// Inventory with one slot (`26 01 00` → `00 DSFID UID`): ≈ 5.87 ms with t2.
    public var inventory: Double { exchange(request: 3, answer: 10) }
}
