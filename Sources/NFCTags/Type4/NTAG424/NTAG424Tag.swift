import Crypto

/// How a native command's data travels (`docs/reference/type4.md` §2.5): in clear, in clear with a MAC, or encrypted
/// with a MAC.
public enum NTAG424CommMode: Sendable, Hashable {
    /// CommMode.Plain.
    case plain
    /// CommMode.MAC: data in clear, MACt after it, both ways.
    case mac
    /// CommMode.Full: data encrypted (ISO 9797-1 M2 padded), MACt after it, both ways.
    case full
}

/// NXP NTAG 424 DNA native commands (CLA `90`) over a `Type4Tag`: AuthenticateEV2First/NonFirst and secure
/// messaging in plain, MAC and full modes (`docs/reference/type4.md` §2). Every `91 xx` becomes an `NTAG424Error`,
/// and a response whose MAC does not verify is refused (`.responseMAC`) and ends the session.
///
/// One instance per selected tag, on the reader's queue (not `Sendable`, like `Type4Tag`).
public final class NTAG424Tag {
    /// The ISO layer underneath (exchange counting, the transceiver).
    public let tag: Type4Tag
    /// The open secure-messaging session, if any.
    public private(set) var session: NTAG424SecureMessaging?
    /// The key number the session was opened with.
    public private(set) var authenticatedKey: UInt8?
    /// RndA's source: libcrypto's `RAND_bytes`; tests inject AN12196's values.
    public var random: (Int) -> [UInt8] = SecureRandom.bytes

    /// Wraps the ISO layer of an NTAG 424 DNA.
    public init(_ tag: Type4Tag) {
        self.tag = tag
    }

    /// Continues a session another object opened on this tag (its keys, TI and CmdCtr).
    public func resume(_ session: NTAG424SecureMessaging, keyNumber: UInt8) {
        self.session = session
        authenticatedKey = keyNumber
    }

    /// Forgets the session (what the tag does on any error, and after ChangeKey of its own key).
    public func endSession() {
        session = nil
        authenticatedKey = nil
    }

    /// AuthenticateEV2First `90 71` with `key` as key `keyNumber`: opens a session (new TI, CmdCtr 0).
    ///
    /// - Throws: `NTAG424Error` `.authentication` (`91 AE`: wrong key) and the other `91 xx`; `.responseMAC`
    ///   when the tag's answer does not hold RndA; `TransportError`.
    public func authenticateEV2First(keyNumber: UInt8, key: [UInt8]) throws {
        endSession()
        let rndA = random(16)
        let encryptedRndB = try native(0x71, [keyNumber, 0x00], expect: 0x91AF)
        let answer = try native(0xAF, try challenge(key: key, encryptedRndB: encryptedRndB, rndA: rndA), expect: 0x9100)
        do {
            let rndB = try AES128.decryptCBC(key: key, encryptedRndB)
            session = try NTAG424Authentication.first(key: key, answer: answer, rndA: rndA, rndB: rndB)
            authenticatedKey = keyNumber
        } catch {
            throw NTAG424Error(.responseMAC, instruction: 0xAF)
        }
    }

    /// AuthenticateEV2NonFirst `90 77`: new session keys under `key`, the same TI and CmdCtr.
    ///
    /// - Throws: `NTAG424Error.notAuthenticated` without a session, else as `authenticateEV2First`.
    public func authenticateEV2NonFirst(keyNumber: UInt8, key: [UInt8]) throws {
        guard let previous = session else { throw NTAG424Error(.notAuthenticated, instruction: 0x77) }
        let rndA = random(16)
        let encryptedRndB = try native(0x77, [keyNumber], expect: 0x91AF)
        let answer = try native(0xAF, try challenge(key: key, encryptedRndB: encryptedRndB, rndA: rndA), expect: 0x9100)
        do {
            let rndB = try AES128.decryptCBC(key: key, encryptedRndB)
            session = try NTAG424Authentication.nonFirst(
                key: key, answer: answer, rndA: rndA, rndB: rndB, continuing: previous)
            authenticatedKey = keyNumber
        } catch {
            endSession()
            throw NTAG424Error(.responseMAC, instruction: 0xAF)
        }
    }

    /// One native command in `mode`: `90 INS 00 00 Lc header ‖ data' ‖ [MACt] 00`, the response's MAC checked
    /// and its data decrypted in full mode. Plain commands while authenticated still move CmdCtr (§2.5).
    ///
    /// - Throws: `NTAG424Error` for `91 xx` (the session ends), a bad response MAC (the session ends) or a
    ///   mode that needs a session; `TransportError`.
    public func command(
        _ ins: UInt8, header: [UInt8] = [], data: [UInt8] = [], mode: NTAG424CommMode
    ) throws -> [UInt8] {
        guard mode == .plain || session != nil else { throw NTAG424Error(.notAuthenticated, instruction: ins) }
        guard let current = session else { return try native(ins, header + data, expect: 0x9100) }
        do {
            // Full mode encrypts CmdData only: a command without data carries just its MAC (GetCardUID, Read_Sig).
            let body = mode == .full && !data.isEmpty ? try current.encryptCommandData(data) : data
            let mac = mode == .plain ? [] : try current.commandMAC(command: ins, header: header, data: body)
            let answer: [UInt8]
            do {
                answer = try native(ins, header + body + mac, expect: 0x9100)
            } catch let error as NTAG424Error {
                endSession()
                throw error
            }
            let result = try checked(answer, ins: ins, mode: mode, session: current)
            session?.advance()
            return result
        } catch is AES128Error {
            endSession()
            throw NTAG424Error(.malformedResponse, instruction: ins)
        }
    }

    /// The response data after its MAC is verified (and decrypted in full mode), under `session`'s counter.
    private func checked(
        _ answer: [UInt8], ins: UInt8, mode: NTAG424CommMode, session: NTAG424SecureMessaging
    ) throws -> [UInt8] {
        guard mode != .plain else { return answer }
        guard answer.count >= 8 else {
            endSession()
            throw NTAG424Error(.malformedResponse, instruction: ins)
        }
        let data = Array(answer.dropLast(8))
        guard try session.responseMAC(data: data) == Array(answer.suffix(8)) else {
            endSession()
            throw NTAG424Error(.responseMAC, instruction: ins)
        }
        guard mode == .full, !data.isEmpty else { return data }
        guard let plain = try session.decryptResponseData(data) else {
            endSession()
            throw NTAG424Error(.malformedResponse, instruction: ins)
        }
        return plain
    }

    /// `90 INS 00 00 Lc data 00`, answered with `expect`; any other status word is an `NTAG424Error`.
    func native(_ ins: UInt8, _ data: [UInt8], expect: UInt16) throws -> [UInt8] {
        let response = try tag.exchange(CommandAPDU(cla: 0x90, ins: ins, p1: 0, p2: 0, data: data, le: 256))
        guard response.status == expect else { throw NTAG424Error(status: response.status, instruction: ins) }
        return response.data
    }

    private func challenge(key: [UInt8], encryptedRndB: [UInt8], rndA: [UInt8]) throws -> [UInt8] {
        do {
            return try NTAG424Authentication.challenge(key: key, encryptedRndB: encryptedRndB, rndA: rndA).data
        } catch {
            throw NTAG424Error(.malformedResponse, instruction: 0x71)
        }
    }
}
