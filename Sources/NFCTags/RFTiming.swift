/// ISO/IEC 14443-A airtime at 106 kbit/s plus EEPROM programming, all in microseconds.
///
/// Frame lengths from `docs/reference/rf-timing.md` §1: a reader frame of N bytes (CRC included) takes (9N + 3)
/// bit periods, a tag frame (9N + 2), a 4-bit ACK/NAK 6, a short frame (REQA/WUPA) 9. One exchange is
/// reader frame + FDT + tag frame + the gap before the next command. These reproduce NXP's printed
/// durations (READ 368 / 1548 µs, WRITE 708 µs).
public struct RFTiming: Sendable, Hashable {
    /// One bit period: 128 / 13.56 MHz ≈ 9.44 µs.
    public var bitPeriod = 128.0 / 13.56
    /// Reader → tag frame delay with n = 9 after a final 1 bit (≈ 91.2 µs).
    public var readerToTagDelay = (9.0 * 128 + 84) / 13.56
    /// Tag → next reader frame, minimum (≈ 86.4 µs).
    public var tagToReaderGap = 1172.0 / 13.56
    /// EEPROM programming time per written page (t_prog), default 4.1 ms.
    public var programmingMicroseconds = 4_100.0
    /// Unmodulated field a reader must hold after switching it on before the first REQA/WUPA (ISO/IEC
    /// 14443-3: ≥ 5.1 ms; `docs/reference/rf-timing.md` §1): what every field off/on re-activation pays on top.
    public var fieldGuardMicroseconds = 5_100.0

    /// Creates the default model; `programmingMicroseconds` is configurable (3–10 ms in tests).
    public init(programmingMicroseconds: Double = 4_100.0) {
        self.programmingMicroseconds = programmingMicroseconds
    }

    /// Duration of a reader frame of `n` bytes, CRC included.
    public func readerFrame(bytes n: Int) -> Double { Double(9 * n + 3) * bitPeriod }
    /// Duration of a tag frame of `n` bytes, CRC included.
    public func tagFrame(bytes n: Int) -> Double { Double(9 * n + 2) * bitPeriod }
    /// Duration of a 4-bit ACK or NAK.
    public var ackNak: Double { 6 * bitPeriod }
    /// Duration of a 7-bit short frame (REQA, WUPA).
    public var shortFrame: Double { 9 * bitPeriod }

    /// One command/answer exchange; `command` and `answer` count data bytes **without** CRC.
    public func exchange(command: Int, answer: Int) -> Double {
        readerFrame(bytes: command + 2) + readerToTagDelay + tagFrame(bytes: answer + 2) + tagToReaderGap
    }

    /// A command answered by a 4-bit ACK/NAK after `programming` µs (WRITE: 708 µs + t_prog + ACK).
    public func acknowledged(command: Int, programming: Double) -> Double {
        readerFrame(bytes: command + 2) + readerToTagDelay + programming + ackNak + tagToReaderGap
    }

    /// A command that gets no answer (HLTA), waiting only the inter-frame gap.
    public func unanswered(command: Int) -> Double {
        readerFrame(bytes: command + 2) + tagToReaderGap
    }

    /// Full activation of a 7-byte-UID tag: REQA/WUPA, then anticollision and SELECT at two cascade
    /// levels (≈ 4.58 ms; `docs/reference/rf-timing.md` §3).
    public var activation: Double {
        let reqa = shortFrame + readerToTagDelay + tagFrame(bytes: 2) + tagToReaderGap
        let anticollision = readerFrame(bytes: 2) + readerToTagDelay + tagFrame(bytes: 5) + tagToReaderGap
        let select = readerFrame(bytes: 9) + readerToTagDelay + tagFrame(bytes: 3) + tagToReaderGap
        return reqa + 2 * (anticollision + select)
    }
}
