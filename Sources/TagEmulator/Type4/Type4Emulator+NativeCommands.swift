/// NTAG 424 DNA native commands, ISO 7816-4 wrapped (`90 <INS> 00 00 [Lc data] 00`, answers
/// `<data> 91 <RC>`; `type4-ntag424.md` §2.1–2.3): the dispatch by INS that later issues extend with
/// AuthenticateEV2First `71`, AuthenticateEV2NonFirst `77`, GetFileSettings `F5`, ChangeFileSettings
/// `5F`, ChangeKey `C4`, ReadData `AD`, WriteData `8D` and the rest of §5.2.
extension Type4Emulator {
    /// GetVersion part 1 (hardware): vendor NXP, type NTAG, subtype 50 pF/strong back modulation,
    /// major 30, minor 00, storage 11, protocol 05 (NT4H2421Gx §10.5.2).
    static let hardwareVersion: [UInt8] = [0x04, 0x04, 0x02, 0x30, 0x00, 0x11, 0x05]
    /// GetVersion part 2 (software): major 01, minor 02 (the data sheet's value; AN12196 shows 01).
    static let softwareVersion: [UInt8] = [0x04, 0x04, 0x02, 0x01, 0x02, 0x11, 0x05]

    /// Routes one native APDU by INS. An APDU other than `AF` while a multi-frame step is pending aborts
    /// it with `91 CA` (not carried out); unknown instructions answer `91 1C`.
    func dispatchNative(_ apdu: ReceivedAPDU) -> [UInt8] {
        if session.pending != nil, apdu.ins != 0xAF {
            session.pending = nil
            return Type4StatusWord.answer(Type4StatusWord.commandAborted)
        }
        switch apdu.ins {
        case 0x60: return getVersion(apdu)
        case 0xAF: return additionalFrame(apdu)
        default: return Type4StatusWord.answer(Type4StatusWord.illegalCommand)
        }
    }

    /// Whether a native APDU has the fixed wrapping `P1 P2 = 00 00`, Le `00`, and no data (unless
    /// `allowsData`).
    private func isWellFormed(_ apdu: ReceivedAPDU, allowsData: Bool = false) -> Bool {
        apdu.p1 == 0 && apdu.p2 == 0 && apdu.le == 256 && (allowsData || apdu.data.isEmpty)
    }

    /// GetVersion `90 60 00 00 00` → part 1 with `91 AF` (§2.3); a malformed wrapping answers `91 7E`.
    func getVersion(_ apdu: ReceivedAPDU) -> [UInt8] {
        guard isWellFormed(apdu) else { return Type4StatusWord.answer(Type4StatusWord.lengthError) }
        session.pending = .getVersion(answered: 1)
        return Type4StatusWord.answer(Self.hardwareVersion, Type4StatusWord.additionalFrame)
    }

    /// Additional frame `90 AF 00 00 00`: the next part of the pending step (GetVersion part 2 with
    /// `91 AF`, part 3 with `91 00`); without a pending step `91 1C`.
    func additionalFrame(_ apdu: ReceivedAPDU) -> [UInt8] {
        guard let pending = session.pending else { return Type4StatusWord.answer(Type4StatusWord.illegalCommand) }
        guard isWellFormed(apdu) else {
            session.pending = nil
            return Type4StatusWord.answer(Type4StatusWord.lengthError)
        }
        switch pending {
        case .getVersion(answered: 1):
            session.pending = .getVersion(answered: 2)
            return Type4StatusWord.answer(Self.softwareVersion, Type4StatusWord.additionalFrame)
        case .getVersion:
            session.pending = nil
            return Type4StatusWord.answer(productionVersion, Type4StatusWord.operationOK)
        }
    }

    /// GetVersion part 3: UID (7), batch number (4) and its last bits with FabKey (1), calendar week,
    /// year (§2.3).
    var productionVersion: [UInt8] {
        let batch = (configuration.batchNumber + [UInt8](repeating: 0, count: 5)).prefix(5)
        return uid + batch + [configuration.productionWeek, configuration.productionYear]
    }
}
