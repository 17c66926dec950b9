import NFCTags

/// NTAG 424 DNA native commands, ISO 7816-4 wrapped (`90 <INS> 00 00 [Lc data] 00`, answers
/// `<data> 91 <RC>`; `docs/reference/type4.md` §2.1–2.3, §5.2): the dispatch by INS, the error rule, and
/// GetVersion.
///
/// Error rule (§2.2, NT4H2421Gx §9.1.9–9.1.10): any refusal while authenticated drops the authentication and
/// is answered by its status word alone, without a MAC. Handlers throw a `StatusFailure`; this file answers
/// it.
extension Type4Emulator {
    /// GetVersion part 1 (hardware): vendor NXP, type NTAG, subtype 50 pF/strong back modulation,
    /// major 30, minor 00, storage 11, protocol 05 (NT4H2421Gx §10.5.2).
    static let hardwareVersion: [UInt8] = [0x04, 0x04, 0x02, 0x30, 0x00, 0x11, 0x05]
    /// GetVersion part 2 (software): major 01, minor 02 (the data sheet's value; AN12196 shows 01).
    static let softwareVersion: [UInt8] = [0x04, 0x04, 0x02, 0x01, 0x02, 0x11, 0x05]

    /// Routes one native APDU by INS. An APDU other than `AF` while a multi-frame step is pending aborts
    /// it with `91 CA` (not carried out); a wrapping other than `P1 P2 = 00 00`, Le `00` answers `91 7E`;
    /// unknown instructions answer `91 1C`.
    func dispatchNative(_ apdu: ReceivedAPDU) -> [UInt8] {
        do throws(StatusFailure) {
            if session.pending != nil, apdu.ins != 0xAF {
                throw StatusFailure(Type4StatusWord.commandAborted)
            }
            guard apdu.p1 == 0, apdu.p2 == 0, apdu.le == 256 else { throw StatusFailure(Type4StatusWord.lengthError) }
            return try handleNative(apdu)
        } catch {
            session.pending = nil
            session.authentication = nil
            return Type4StatusWord.answer(error.status)
        }
    }

    /// Runs the handler of the APDU's instruction.
    private func handleNative(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        switch apdu.ins {
        case 0x60: try getVersion(apdu)
        case 0xAF: try additionalFrame(apdu)
        case 0x71: try authenticateFirst(apdu)
        case 0x77: try authenticateNonFirst(apdu)
        case 0x64: try getKeyVersion(apdu)
        case 0xC4: try changeKey(apdu)
        case 0xF5: try getFileSettings(apdu)
        case 0x5F: try changeFileSettings(apdu)
        case 0xF6: try getFileCounters(apdu)
        case 0xAD: try readData(apdu)
        case 0x8D: try writeData(apdu)
        case 0x3C: try readSignature(apdu)
        case 0x51: try getCardUID(apdu)
        default: throw StatusFailure(Type4StatusWord.illegalCommand)
        }
    }

    /// Refuses a command that needs the application selected (`91 9D` at PICC level, §1.8).
    func requireApplication() throws(StatusFailure) {
        guard session.level == .application, application.isInstalled else {
            throw StatusFailure(Type4StatusWord.permissionDenied)
        }
    }

    /// GetVersion `90 60 00 00 00` → part 1 with `91 AF` (§2.3). Authenticated it is CommMode.MAC: the command
    /// carries a MAC, and part 3's answer one over all three parts.
    func getVersion(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        let (_, data) = try unwrapCommand(apdu, headerLength: 0, mode: .mac)
        guard data.isEmpty else { throw StatusFailure(Type4StatusWord.lengthError) }
        session.pending = .getVersion(answered: 1)
        return Type4StatusWord.answer(Self.hardwareVersion, Type4StatusWord.additionalFrame)
    }

    /// Additional frame `90 AF 00 00 [Lc data] 00`: the next part of the pending step (GetVersion part 2 with
    /// `91 AF`, part 3 with `91 00`; an authentication's part 2); without a pending step `91 1C`.
    func additionalFrame(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        guard let pending = session.pending else { throw StatusFailure(Type4StatusWord.illegalCommand) }
        switch pending {
        case .authentication(let keyNumber, let first, let rndB, let capabilities):
            session.pending = nil
            return try authenticationPart2(
                apdu, keyNumber: keyNumber, first: first, rndB: rndB, capabilities: capabilities)
        case .getVersion(answered: 1):
            guard apdu.data.isEmpty else { throw StatusFailure(Type4StatusWord.lengthError) }
            session.pending = .getVersion(answered: 2)
            return Type4StatusWord.answer(Self.softwareVersion, Type4StatusWord.additionalFrame)
        case .getVersion:
            guard apdu.data.isEmpty else { throw StatusFailure(Type4StatusWord.lengthError) }
            session.pending = nil
            guard let messaging = session.authentication?.messaging else {
                return Type4StatusWord.answer(productionVersion, Type4StatusWord.operationOK)
            }
            let all = Self.hardwareVersion + Self.softwareVersion + productionVersion
            let mac: [UInt8]
            do { mac = try messaging.responseMAC(data: all) } catch {
                throw StatusFailure(Type4StatusWord.integrityError)
            }
            session.authentication?.messaging.advance()
            return Type4StatusWord.answer(productionVersion + mac, Type4StatusWord.operationOK)
        }
    }

    /// GetVersion part 3: UID (7), batch number (4) and its last bits with FabKey (1), calendar week,
    /// year (§2.3).
    var productionVersion: [UInt8] {
        let batch = (configuration.batchNumber + [UInt8](repeating: 0, count: 5)).prefix(5)
        return uid + batch + [configuration.productionWeek, configuration.productionYear]
    }
}
