import NFCTags

/// ISO/IEC 7816-4 commands (CLA `00`) of the emulated Type 4 tag: ISOSelectFile `00 A4`, ISOReadBinary
/// `00 B0`, ISOUpdateBinary `00 D6` (`docs/reference/type4.md` §1.2, §1.7, §1.8; NT4H2421Gx §10.9). They are
/// always plain and need free (`E`) access rights.
extension Type4Emulator {
    /// Routes one ISO APDU by INS; unknown instructions answer `6D00`.
    func dispatchISO(_ apdu: ReceivedAPDU) -> [UInt8] {
        let status: UInt16
        switch apdu.ins {
        case 0xA4: status = selectFile(apdu)
        case 0xB0: return readBinary(apdu)
        case 0xD6: status = updateBinary(apdu)
        default: status = Type4StatusWord.instructionNotSupported
        }
        return Type4StatusWord.answer(status)
    }

    /// ISOSelectFile `00 A4 P1 P2 [Lc data] [Le]`: P1 `00`/`01`/`02` by FID (empty or `3F00` = MF,
    /// `E110` = the application, an EF of the selected application), `03` parent, `04` by DF name.
    /// P2 `00` or `0C`; the chip never returns FCI. Unknown names or FIDs answer `6A82` and keep the
    /// selection.
    func selectFile(_ apdu: ReceivedAPDU) -> UInt16 {
        guard apdu.p2 == 0x00 || apdu.p2 == 0x0C else { return Type4StatusWord.wrongParameters }
        switch apdu.p1 {
        case 0x00, 0x01, 0x02:
            return selectByIdentifier(apdu.data, p1: apdu.p1)
        case 0x03:
            guard apdu.data.isEmpty else { return Type4StatusWord.wrongLength }
            if session.file != nil {
                session.file = nil
            } else {
                session.select(.masterFile)
            }
            return Type4StatusWord.success
        case 0x04:
            guard (1...16).contains(apdu.data.count) else { return Type4StatusWord.wrongLength }
            if apdu.data == Type4Application.dfName && application.isInstalled {
                session.select(.application)
            } else if apdu.data == Type4Application.masterFileName && chip.speaksNativeCommands {
                session.select(.masterFile)
            } else {
                return Type4StatusWord.notFound
            }
            return Type4StatusWord.success
        default:
            return Type4StatusWord.wrongParameters
        }
    }

    /// Selection by file identifier (P1 `00` any, `01` child DF, `02` EF under the current DF).
    private func selectByIdentifier(_ data: [UInt8], p1: UInt8) -> UInt16 {
        guard data.isEmpty || data.count == 2 else { return Type4StatusWord.wrongLength }
        let identifier = data.isEmpty ? Type4Application.masterFileIdentifier : UInt16(data[0]) << 8 | UInt16(data[1])
        switch identifier {
        case Type4Application.masterFileIdentifier where p1 == 0x00:
            session.select(.masterFile)
        case Type4Application.identifier where p1 != 0x02 && application.isInstalled:
            session.select(.application)
        default:
            guard p1 != 0x01, session.level == .application, application.isInstalled,
                let index = application.index(ofIdentifier: identifier)
            else { return Type4StatusWord.notFound }
            session.file = application.files[index].number
        }
        return Type4StatusWord.success
    }

    /// The file an ISOReadBinary/ISOUpdateBinary addresses and the offset: P1 b8 = 1 is the short-FID
    /// form (P1 b5–b1 = file number, which also selects the file, P2 = offset), else a 15-bit offset
    /// into the selected file.
    private func addressedFile(_ apdu: ReceivedAPDU) -> Result<(index: Int, offset: Int), StatusFailure> {
        if apdu.p1 & 0x80 != 0 {
            guard apdu.p1 & 0x60 == 0 else { return .failure(StatusFailure(Type4StatusWord.wrongParameters)) }
            guard session.level == .application, application.isInstalled,
                let index = application.index(ofNumber: apdu.p1 & 0x1F)
            else { return .failure(StatusFailure(Type4StatusWord.notFound)) }
            session.file = application.files[index].number
            return .success((index, Int(apdu.p2)))
        }
        guard let number = session.file, let index = application.index(ofNumber: number) else {
            return .failure(StatusFailure(Type4StatusWord.conditions))
        }
        return .success((index, Int(apdu.p1) << 8 | Int(apdu.p2)))
    }

    /// ISOReadBinary `00 B0 P1 P2 Le`: up to Le bytes (`00` = 256) from the offset; fewer, without an
    /// error, where the file ends. `6982` without a free Read or ReadWrite right (unauthenticated, an
    /// SDMFileRead key grants it too, §5.3) or once SDMReadCtr is at its limit, `6985` with no file
    /// selected or an offset beyond the file's end (ASSUMPTION: the data sheet names no word for it,
    /// open question 5), `6700` without Le or with data. Unauthenticated reads of an SDM file return its
    /// mirrors (`sdmOutput`); authenticated reads its static bytes.
    func readBinary(_ apdu: ReceivedAPDU) -> [UInt8] {
        guard let le = apdu.le, apdu.data.isEmpty else { return Type4StatusWord.answer(Type4StatusWord.wrongLength) }
        let (index, offset): (Int, Int)
        switch addressedFile(apdu) {
        case .success(let target): (index, offset) = target
        case .failure(let failure): return Type4StatusWord.answer(failure.status)
        }
        let file = application.files[index]
        let appliesSDM = session.authentication == nil && file.settings.sdm != nil
        guard file.settings.freeRead || (appliesSDM && file.settings.sdm?.fileReadKey != nil) else {
            return Type4StatusWord.answer(Type4StatusWord.securityStatus)
        }
        guard offset <= file.size else { return Type4StatusWord.answer(Type4StatusWord.conditions) }
        let bytes: [UInt8]
        do throws(StatusFailure) {
            bytes = appliesSDM ? try sdmOutput(file: index, kind: .isoReadBinary) : file.bytes
        } catch {
            return Type4StatusWord.answer(error.status)
        }
        let end = min(file.size, offset + le)
        return Type4StatusWord.answer(Array(bytes[offset..<end]), Type4StatusWord.success)
    }

    /// ISOUpdateBinary `00 D6 P1 P2 Lc data`: writes the data at the offset. `6985` beyond the file's
    /// end or with no file selected, `6982` without a free Write or ReadWrite right, `6700` without
    /// data or with Le. During a tear only the data bytes that reached the tag are written.
    func updateBinary(_ apdu: ReceivedAPDU) -> UInt16 {
        guard !apdu.data.isEmpty, apdu.le == nil else { return Type4StatusWord.wrongLength }
        let (index, offset): (Int, Int)
        switch addressedFile(apdu) {
        case .success(let target): (index, offset) = target
        case .failure(let failure): return failure.status
        }
        let file = application.files[index]
        guard file.settings.freeWrite else { return Type4StatusWord.securityStatus }
        guard offset + apdu.data.count <= file.size else { return Type4StatusWord.conditions }
        let written = apdu.data.prefix(tornDataLimit ?? apdu.data.count)
        programmedFrames = timing.commandBlocks(bytes: 5 + apdu.data.count)
        program(written, file: index, at: offset)
        return Type4StatusWord.success
    }
}

/// A refusal carried as a `Result` failure: the status word to answer.
struct StatusFailure: Error {
    /// The status word.
    let status: UInt16

    /// Wraps `status`.
    init(_ status: UInt16) { self.status = status }
}
