/// SUN (Secure Unique NFC, `docs/reference/type4.md` §3): the dynamic message of a keyed NTAG 424 DNA as a
/// `DynamicMessageScheme`: its `{{sun.…}}` tokens, their layout in the NDEF file (`SUNLayout`), the read-back check
/// (`SUNReadBack`), tap verification (`SUNVerifier`) and the audit's GetFileSettings and GetKeyVersion reads.
///
/// Key roles (docs/authentication.md): K1 decrypts every tag's PICC data, so it does not depend on the UID; K2 of
/// the tag keys the MAC; K0 is the one a `--deep` audit proves.
public struct SUNScheme: DynamicMessageScheme {
    /// Creates the scheme.
    public init() {}

    public var name: String { "SUN" }
    public var tokenPrefix: String { SUNToken.prefix }
    public var tokens: [DynamicToken] { SUNToken.allCases.map(\.token) }
    public var keyNumbers: ClosedRange<Int> { 0...4 }
    public var usage: String {
        "mirrors with \(SUNToken.uid.written) and \(SUNToken.counter.written), or authenticates with "
            + "\(SUNToken.picc.written) and \(SUNToken.mac.written)"
    }

    /// A UID for the keys a tap is opened with before its UID is known (K1 does not depend on it).
    static let anyUID = [UInt8](repeating: 0, count: 7)

    /// The section's `macInput`: `picc` (the default) covers the message from the PICC data, `empty` nothing.
    public func messageOptions(_ options: any KeyedJobOptions, rights: DynamicMessageOptions.Rights)
        -> DynamicMessageOptions
    {
        DynamicMessageOptions(rights: rights, macCoversMessage: (options as? NTAG424JobOptions)?.macInput != .empty)
    }

    public func problem(with tokens: [DynamicToken]) -> DynamicMessageProblem? {
        let found = tokens.map(SUNToken.init)
        func index(_ wanted: (SUNToken) -> Bool) -> Int? { found.firstIndex { $0.map(wanted) ?? false } }
        let picc = index { $0 == .picc }
        let mac = index { $0 == .mac }
        if picc != nil, let plain = index({ $0 == .uid || $0 == .counter }), let token = found[plain] {
            return DynamicMessageProblem(
                token: plain,
                "\(token.written) is a plain mirror (SDMMetaRead free) and cannot be in one template with "
                    + "\(SUNToken.picc.written) (SDMMetaRead K1); the PICC data already holds UID and counter")
        }
        if let picc, mac == nil {
            return DynamicMessageProblem(
                token: picc, "\(SUNToken.picc.written) needs \(SUNToken.mac.written): without it a tap proves nothing")
        }
        if let mac, Set(found.compactMap { $0 }).count == 1 {
            return DynamicMessageProblem(
                token: mac,
                "\(SUNToken.mac.written) needs \(SUNToken.picc.written), or \(SUNToken.uid.written) and/or "
                    + "\(SUNToken.counter.written), for its session key")
        }
        return nil
    }

    public func layout(messageOffsets: [DynamicToken: Int], options: DynamicMessageOptions)
        -> any DynamicMessageLayout
    {
        var offsets: [SUNToken: Int] = [:]
        for (token, offset) in messageOffsets {
            if let sun = SUNToken(token) { offsets[sun] = SUNLayout.nlenSize + offset }
        }
        return SUNLayout(offsets: offsets, options: options)
    }

    public func checkKeys(_ key: @escaping TagKey) throws {
        _ = try key(Self.anyUID, Int(SUNLayout.metaReadKey))
    }

    /// Derives K1 (the job's, cached by the scheme's `tagKey`) and the tag's K2 only.
    public func verifyTap(_ url: String, layout: any TapLayout, key: @escaping TagKey) -> TapVerification {
        guard let layout = layout as? SUNURLLayout else {
            return TapVerification(isValid: false, uid: nil, counter: nil, detail: "not a SUN URL layout")
        }
        let metaReadKey: SecretKey
        do {
            metaReadKey = try key(Self.anyUID, Int(SUNLayout.metaReadKey))
        } catch {
            return TapVerification(isValid: false, uid: nil, counter: nil, detail: "cannot check: \(error)")
        }
        return SUNVerifier.verify(url: url, layout: layout, metaReadKey: metaReadKey.bytes) { uid in
            try key(uid, Int(SUNLayout.fileReadKey)).bytes
        }
    }

    /// GetFileSettings `90 F5 02` and GetKeyVersion `90 64` of K0–K4 (free, plain), after the message was read (so
    /// the SUN the read produced is the one a phone gets); with `deepKey`, one AuthenticateEV2First `90 71` with it
    /// (a refusal counts toward the key's failure counter, hence only on request).
    public func readKeyedState(_ tag: any FamilyTag, deepKey: SecretKey?) throws -> KeyedTagReading? {
        guard let native = tag.ntag424 else { return nil }
        let settings = try native.getFileSettings(0x02)
        var versions: [UInt8] = []
        for number in keyNumbers { versions.append(try native.getKeyVersion(UInt8(number))) }
        var reading = KeyedTagReading(settings: settings, keyVersions: versions)
        if let deepKey {
            do {
                try native.authenticateEV2First(keyNumber: 0, key: deepKey.bytes)
                reading.deepAuthentication = true
            } catch let error as NTAG424Error where error.kind == .authentication {
                reading.deepAuthentication = false
            }
            native.endSession()
        }
        return reading
    }

    public var deepKeyNumber: Int { 0 }
}
