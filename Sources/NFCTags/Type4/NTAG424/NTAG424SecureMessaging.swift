import Crypto

/// An NTAG 424 DNA AES secure-messaging session (EV2): its keys, transaction identifier and command counter,
/// and the MACs, IVs and padding of `docs/reference/type4.md` §2.4–§2.5. Pure: no I/O, every AES operation is
/// libcrypto's (`AES128`).
///
/// The command MAC and IV use the current `commandCounter` n; the response's use n + 1, and `advance()`
/// moves the counter once the tag has accepted a command (chained frames count once).
public struct NTAG424SecureMessaging: Sendable, Hashable {
    /// SesAuthENCKey (AES-128), for CommMode.Full data.
    public let encryptionKey: [UInt8]
    /// SesAuthMACKey (AES-128), for every MAC.
    public let macKey: [UInt8]
    /// TI, the 4-byte transaction identifier AuthenticateEV2First returned.
    public let transactionIdentifier: [UInt8]
    /// CmdCtr: reset to 0 by AuthenticateEV2First, one up per accepted command.
    public var commandCounter: UInt16

    /// A session from its keys and TI (after authentication), at `commandCounter`.
    public init(encryptionKey: [UInt8], macKey: [UInt8], transactionIdentifier: [UInt8], commandCounter: UInt16 = 0) {
        self.encryptionKey = encryptionKey
        self.macKey = macKey
        self.transactionIdentifier = transactionIdentifier
        self.commandCounter = commandCounter
    }

    /// The session keys of an authentication with `key` (SP 800-108 counter mode, PRF AES-CMAC, §2.4):
    /// SV1 = `A5 5A 00 01 00 80 ‖ ctx` (ENC), SV2 = `5A A5 00 01 00 80 ‖ ctx` (MAC), with ctx =
    /// RndA[0..1] ‖ (RndA[2..7] ⊕ RndB[0..5]) ‖ RndB[6..15] ‖ RndA[8..15].
    ///
    /// - Throws: `AES128Error` for a key or random that is not 16 bytes.
    public static func sessionKeys(
        key: [UInt8], rndA: [UInt8], rndB: [UInt8]
    ) throws(AES128Error) -> (encryption: [UInt8], mac: [UInt8]) {
        guard rndA.count == 16, rndB.count == 16 else { throw .blockLength(min(rndA.count, rndB.count)) }
        let mixed = (0..<6).map { rndA[2 + $0] ^ rndB[$0] }
        let context = Array(rndA[0..<2]) + mixed + rndB[6..<16] + rndA[8..<16]
        return (
            try AES128.cmac(key: key, [0xA5, 0x5A, 0x00, 0x01, 0x00, 0x80] + context),
            try AES128.cmac(key: key, [0x5A, 0xA5, 0x00, 0x01, 0x00, 0x80] + context)
        )
    }

    /// MACt: the 8 bytes at odd indices 1, 3, …, 15 of a 16-byte CMAC (§2.5).
    public static func truncated(_ cmac: [UInt8]) -> [UInt8] { stride(from: 1, to: 16, by: 2).map { cmac[$0] } }

    /// The counter as the crypto inputs take it, least significant byte first.
    static func littleEndian(_ counter: UInt16) -> [UInt8] { [UInt8(counter & 0xFF), UInt8(counter >> 8)] }

    /// The MACt a command carries: over `Cmd ‖ CmdCtr ‖ TI ‖ CmdHeader ‖ CmdData` (CmdData encrypted in Full).
    public func commandMAC(command: UInt8, header: [UInt8], data: [UInt8]) throws(AES128Error) -> [UInt8] {
        let input = [command] + Self.littleEndian(commandCounter) + transactionIdentifier + header + data
        return Self.truncated(try AES128.cmac(key: macKey, input))
    }

    /// The MACt a response must carry: over `RC ‖ CmdCtr+1 ‖ TI ‖ RespData` (RespData encrypted in Full).
    public func responseMAC(returnCode: UInt8 = 0x00, data: [UInt8]) throws(AES128Error) -> [UInt8] {
        let input = [returnCode] + Self.littleEndian(commandCounter &+ 1) + transactionIdentifier + data
        return Self.truncated(try AES128.cmac(key: macKey, input))
    }

    /// The command IV of CommMode.Full: `E_ECB(SesAuthENCKey, A5 5A ‖ TI ‖ CmdCtr ‖ 00×8)`.
    public func commandIV() throws(AES128Error) -> [UInt8] {
        try iv(label: [0xA5, 0x5A], counter: commandCounter)
    }

    /// The response IV of CommMode.Full: `E_ECB(SesAuthENCKey, 5A A5 ‖ TI ‖ CmdCtr+1 ‖ 00×8)`.
    public func responseIV() throws(AES128Error) -> [UInt8] {
        try iv(label: [0x5A, 0xA5], counter: commandCounter &+ 1)
    }

    /// Command data encrypted for CommMode.Full: ISO 9797-1 method 2 padding, AES-CBC under the command IV.
    public func encryptCommandData(_ data: [UInt8]) throws(AES128Error) -> [UInt8] {
        try AES128.encryptCBC(key: encryptionKey, iv: try commandIV(), Self.padded(data))
    }

    /// Response data of CommMode.Full decrypted and unpadded; `nil` when the padding is malformed.
    public func decryptResponseData(_ data: [UInt8]) throws(AES128Error) -> [UInt8]? {
        Self.unpadded(try AES128.decryptCBC(key: encryptionKey, iv: try responseIV(), data))
    }

    /// Moves CmdCtr on after the tag accepted a command.
    public mutating func advance() { commandCounter &+= 1 }

    /// ISO 9797-1 method 2: `80`, then `00`s to a multiple of 16 (a whole block when already aligned).
    public static func padded(_ data: [UInt8]) -> [UInt8] {
        let padded = data + [0x80]
        return padded + [UInt8](repeating: 0, count: (16 - padded.count % 16) % 16)
    }

    /// The data before method-2 padding, `nil` when the padding is not `80 00…` within the last block.
    public static func unpadded(_ data: [UInt8]) -> [UInt8]? {
        guard let marker = data.lastIndex(where: { $0 != 0 }), data[marker] == 0x80, data.count - marker <= 16
        else { return nil }
        return Array(data[..<marker])
    }

    private func iv(label: [UInt8], counter: UInt16) throws(AES128Error) -> [UInt8] {
        let block = label + transactionIdentifier + Self.littleEndian(counter) + [UInt8](repeating: 0, count: 8)
        return try AES128.encryptECB(key: encryptionKey, block)
    }
}
