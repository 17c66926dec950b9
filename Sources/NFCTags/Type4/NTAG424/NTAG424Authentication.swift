import Crypto

/// Why an NTAG 424 DNA authentication was not accepted on the host side.
public enum NTAG424AuthenticationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The tag's answer had the wrong length for the step.
    case answerLength(expected: Int, got: Int)
    /// The tag did not return RotL(RndA): it does not hold the key (or the answer was tampered with).
    case rndAMismatch
    /// An AES operation failed (a key that is not 16 bytes).
    case crypto(AES128Error)

    public var description: String {
        switch self {
        case .answerLength(let expected, let got): "authentication answer of \(got) bytes, \(expected) expected"
        case .rndAMismatch: "the tag's answer does not hold RndA: wrong key, or not the tag that was challenged"
        case .crypto(let error): "\(error)"
        }
    }
}

/// The host's side of AuthenticateEV2First (`90 71`) and AuthenticateEV2NonFirst (`90 77`) in AES mode
/// (`docs/reference/type4.md` §2.4): the second part's challenge and the check of the tag's answer. Pure; the
/// caller sends the APDUs and supplies RndA (16 random bytes from libcrypto's `RAND_bytes`).
public enum NTAG424Authentication {
    /// `x[1...15] ‖ x[0]`.
    public static func rotatedLeft(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropFirst()) + bytes.prefix(1) }

    /// The second part's 32 data bytes `E(K, RndA ‖ RotL(RndB))` (AES-CBC, IV 0, no padding) for the first
    /// part's answer `E(K, RndB)`; returns RndB too.
    public static func challenge(
        key: [UInt8], encryptedRndB: [UInt8], rndA: [UInt8]
    ) throws(NTAG424AuthenticationError) -> (data: [UInt8], rndB: [UInt8]) {
        guard encryptedRndB.count == 16 else { throw .answerLength(expected: 16, got: encryptedRndB.count) }
        do {
            let rndB = try AES128.decryptCBC(key: key, encryptedRndB)
            return (try AES128.encryptCBC(key: key, rndA + rotatedLeft(rndB)), rndB)
        } catch {
            throw .crypto(error)
        }
    }

    /// Checks AuthenticateEV2First's answer `E(K, TI ‖ RotL(RndA) ‖ PDcap2 ‖ PCDcap2)` and opens the session
    /// (CmdCtr 0).
    public static func first(
        key: [UInt8], answer: [UInt8], rndA: [UInt8], rndB: [UInt8]
    ) throws(NTAG424AuthenticationError) -> NTAG424SecureMessaging {
        guard answer.count == 32 else { throw .answerLength(expected: 32, got: answer.count) }
        let plain = try decrypt(key: key, answer)
        guard Array(plain[4..<20]) == rotatedLeft(rndA) else { throw .rndAMismatch }
        return try session(key: key, rndA: rndA, rndB: rndB, ti: Array(plain[0..<4]), counter: 0)
    }

    /// Checks AuthenticateEV2NonFirst's answer `E(K, RotL(RndA))`: new session keys, the same TI and CmdCtr.
    public static func nonFirst(
        key: [UInt8], answer: [UInt8], rndA: [UInt8], rndB: [UInt8], continuing previous: NTAG424SecureMessaging
    ) throws(NTAG424AuthenticationError) -> NTAG424SecureMessaging {
        guard answer.count == 16 else { throw .answerLength(expected: 16, got: answer.count) }
        guard try decrypt(key: key, answer) == rotatedLeft(rndA) else { throw .rndAMismatch }
        return try session(
            key: key, rndA: rndA, rndB: rndB, ti: previous.transactionIdentifier, counter: previous.commandCounter)
    }

    private static func decrypt(key: [UInt8], _ data: [UInt8]) throws(NTAG424AuthenticationError) -> [UInt8] {
        do { return try AES128.decryptCBC(key: key, data) } catch { throw .crypto(error) }
    }

    private static func session(
        key: [UInt8], rndA: [UInt8], rndB: [UInt8], ti: [UInt8], counter: UInt16
    ) throws(NTAG424AuthenticationError) -> NTAG424SecureMessaging {
        do {
            let keys = try NTAG424SecureMessaging.sessionKeys(key: key, rndA: rndA, rndB: rndB)
            return NTAG424SecureMessaging(
                encryptionKey: keys.encryption, macKey: keys.mac, transactionIdentifier: ti, commandCounter: counter)
        } catch {
            throw .crypto(error)
        }
    }
}
