/// ISO/IEC 14443-4 (ISO-DEP) airtime at 106 kbit/s of whole APDU exchanges, in microseconds: the RF floor
/// of a Type 4 tag session, shared by the emulator and by benchmarks that compute a modelled floor.
///
/// Frames use `RFTiming`'s formulas (reader frame (9n + 3) bit periods, tag frame (9n + 2), frame delay
/// and gap; `docs/reference/type4.md` §5.4). An APDU travels in I-blocks of at most FSC − 3 INF bytes (PCB and
/// CRC_A take 3; a CID byte takes one more); a response in I-blocks of at most FSD − 3. Every chained
/// block is acknowledged by an R(ACK) of 3 bytes on the air (PCB and CRC_A).
///
/// ```
/// command:  I(chain) → R(ACK) … I(last) → [processing] → I(chain) ← R(ACK) … → I(last)
/// ```
///
/// The processing times are **ASSUMPTIONS**: the NT4H2421Gx data sheet publishes none (§5.4, open
/// question 2). Defaults: 1 ms for a plain command (SELECT, READ BINARY, GetVersion part) and 4 ms per
/// non-volatile write frame (ISOUpdateBinary; §5.4 suggests 3–6 ms). Calibrate against hardware.
public struct ISODEPTiming: Sendable, Hashable {
    /// The ISO/IEC 14443-3 bit timing (bit period, frame delay, gap, activation).
    public var rf: RFTiming
    /// FSC, the largest frame the tag accepts (bytes incl. PCB and CRC), from the ATS (NTAG 424 DNA: 128).
    public var cardFrameSize: Int
    /// FSD, the largest frame the reader accepts, from RATS (`E0 80`: 256).
    public var readerFrameSize: Int
    /// Whether every block carries a CID byte (one INF byte less per frame).
    public var usesCID: Bool
    /// ASSUMPTION: internal processing of a plain command (select, read, GetVersion part), µs. Default 1000.
    public var commandMicroseconds: Double
    /// ASSUMPTION: programming time of one frame's worth of non-volatile write, µs. Default 4000.
    public var writeFrameMicroseconds: Double

    /// Creates the model; the defaults are the NTAG 424 DNA's FSC 128 and a reader FSD of 256.
    public init(
        rf: RFTiming = RFTiming(), cardFrameSize: Int = 128, readerFrameSize: Int = 256, usesCID: Bool = false,
        commandMicroseconds: Double = 1_000, writeFrameMicroseconds: Double = 4_000
    ) {
        self.rf = rf
        self.cardFrameSize = cardFrameSize
        self.readerFrameSize = readerFrameSize
        self.usesCID = usesCID
        self.commandMicroseconds = commandMicroseconds
        self.writeFrameMicroseconds = writeFrameMicroseconds
    }

    /// The frame size FSC or FSD coded by FSCI/FSDI (ISO/IEC 14443-4; codes above 8 clamp to 256).
    public static func frameSize(code: UInt8) -> Int {
        let sizes = [16, 24, 32, 40, 48, 64, 96, 128, 256]
        return sizes[min(Int(code), sizes.count - 1)]
    }

    /// INF bytes one I-block carries in a frame of `frameSize` bytes: size − PCB − CRC (− CID).
    public func informationBytes(frameSize: Int) -> Int { max(1, frameSize - 3 - (usesCID ? 1 : 0)) }

    /// The INF sizes of the I-blocks carrying `bytes` in frames of `frameSize` (an empty APDU still takes one).
    public func blocks(bytes: Int, frameSize: Int) -> [Int] {
        let size = informationBytes(frameSize: frameSize)
        guard bytes > size else { return [bytes] }
        return stride(from: 0, to: bytes, by: size).map { min(size, bytes - $0) }
    }

    /// The I-blocks a C-APDU of `bytes` takes (to the tag's FSC).
    public func commandBlocks(bytes: Int) -> Int { blocks(bytes: bytes, frameSize: cardFrameSize).count }

    /// The I-blocks an R-APDU of `bytes` takes (to the reader's FSD).
    public func responseBlocks(bytes: Int) -> Int { blocks(bytes: bytes, frameSize: readerFrameSize).count }

    /// Bytes of a block on the air around `information` INF bytes: PCB, optional CID, CRC_A.
    public func blockBytes(information: Int) -> Int { information + 3 + (usesCID ? 1 : 0) }

    /// An R(ACK) or other INF-less block on the air: PCB (+ CID) and CRC_A.
    public var acknowledgementBytes: Int { blockBytes(information: 0) }

    /// One reader frame of `bytes` (CRC included) answered by a tag frame of `answer` bytes, with the
    /// frame delay and the gap before the next reader frame.
    public func roundTrip(reader bytes: Int, tag answer: Int, processing: Double = 0) -> Double {
        rf.readerFrame(bytes: bytes) + rf.readerToTagDelay + processing + rf.tagFrame(bytes: answer)
            + rf.tagToReaderGap
    }

    /// Airtime of one whole APDU exchange: a C-APDU of `command` bytes, an R-APDU of `response` bytes
    /// (status word included), and `processing` µs inside the tag before it answers.
    ///
    /// Chained command blocks are each answered by R(ACK); the response blocks after the first are each
    /// pulled by an R(ACK) from the reader.
    public func exchange(command: Int, response: Int, processing: Double) -> Double {
        let sent = blocks(bytes: command, frameSize: cardFrameSize)
        let received = blocks(bytes: response, frameSize: readerFrameSize)
        var total = 0.0
        for information in sent.dropLast() {
            total += roundTrip(reader: blockBytes(information: information), tag: acknowledgementBytes)
        }
        total += roundTrip(
            reader: blockBytes(information: sent.last ?? 0), tag: blockBytes(information: received[0]),
            processing: processing)
        for information in received.dropFirst() {
            total += roundTrip(reader: acknowledgementBytes, tag: blockBytes(information: information))
        }
        return total
    }

    /// Processing of a command that programs `frames` write frames (0 for a plain command).
    public func processing(writeFrames frames: Int) -> Double {
        commandMicroseconds + Double(frames) * writeFrameMicroseconds
    }

    /// RATS `E0 xx` answered by an ATS of `atsLength` bytes (TL included), then the SFGT the reader must
    /// leave before its first block (302 µs · 2^SFGI; SFGI 0: none beyond the usual gap).
    public func rats(atsLength: Int, startupFrameGuardInteger sfgi: UInt8) -> Double {
        let guardTime = sfgi == 0 ? 0 : 4096 / 13.56 * Double(1 << Int(min(sfgi, 14)))
        return rf.readerFrame(bytes: 4) + rf.readerToTagDelay + rf.tagFrame(bytes: atsLength + 2)
            + max(rf.tagToReaderGap, guardTime)
    }

    /// Full activation of a 7-byte-UID ISO-DEP tag: REQA/WUPA, both cascade levels, RATS and ATS.
    public func activation(atsLength: Int, startupFrameGuardInteger sfgi: UInt8) -> Double {
        rf.activation + rats(atsLength: atsLength, startupFrameGuardInteger: sfgi)
    }

    /// The frame waiting time coded by FWI: 302 µs · 2^FWI (FWI 7: 38.66 ms; 15 is RFU, read as 4).
    public static func frameWaitingMicroseconds(integer fwi: UInt8) -> Double {
        4096 / 13.56 * Double(1 << Int(fwi > 14 ? 4 : fwi))
    }
}
