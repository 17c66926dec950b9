import NDEF
import NFCTags

/// The keyed memory chip's dynamic message ("KMAC") as a `DynamicMessageScheme`: on every read the tag fills
/// `{{kmem.uid}}` (14 hex digits), `{{kmem.ctr}}` (8, a counter that rises per read) and `{{kmem.mac}}` (16, the
/// first 8 bytes of HMAC-SHA256 under K1 over UID ‖ counter). A tap carries them as query parameter values.
public struct KeyedMemoryMessage: DynamicMessageScheme {
    /// Creates the scheme.
    public init() {}

    public var name: String { "KMAC" }
    public var tokenPrefix: String { KeyedMemoryToken.prefix }
    public var tokens: [DynamicToken] { KeyedMemoryToken.allCases.map(\.token) }
    public var usage: String { "fills \(tokens.map(\.written).joined(separator: ", "))" }
    public var keyNumbers: ClosedRange<Int> { 0...1 }
    public var deepKeyNumber: Int { KeyedMemoryFamily.masterKey }

    public func messageOptions(_ options: any KeyedJobOptions, rights: DynamicMessageOptions.Rights)
        -> DynamicMessageOptions
    {
        DynamicMessageOptions(rights: rights, macCoversMessage: false)
    }

    /// All three tokens, or none.
    public func problem(with tokens: [DynamicToken]) -> DynamicMessageProblem? {
        let found = Set(tokens.compactMap(KeyedMemoryToken.init))
        guard found.count < KeyedMemoryToken.allCases.count, !tokens.isEmpty else { return nil }
        let missing = KeyedMemoryToken.allCases.filter { !found.contains($0) }.map(\.token.written)
        return DynamicMessageProblem(token: 0, "a KMAC needs \(missing.joined(separator: " and ")) as well")
    }

    public func layout(messageOffsets: [DynamicToken: Int], options: DynamicMessageOptions)
        -> any DynamicMessageLayout
    {
        var offsets: [KeyedMemoryToken: Int] = [:]
        for (token, offset) in messageOffsets {
            if let known = KeyedMemoryToken(token) { offsets[known] = offset }
        }
        let rights: UInt8 =
            switch options.rights {
            case .free: 0
            case .key: 1
            case .never: 2
            }
        return KeyedMemoryLayout(settings: KeyedMemorySettings(isConfigured: true, offsets: offsets, rights: rights))
    }

    /// The three tokens as values of query parameters (`…?u={{kmem.uid}}&c={{kmem.ctr}}&m={{kmem.mac}}`).
    public func tapLayout(strings: [[DynamicTemplatePart]], options: DynamicMessageOptions)
        throws(DynamicMessageProblem) -> any TapLayout
    {
        for parts in strings {
            var names: [KeyedMemoryToken: String] = [:]
            var previous: DynamicTemplatePart?
            for part in parts {
                defer { previous = part }
                guard case .token(let found, let index) = part, let token = KeyedMemoryToken(found) else { continue }
                guard case .literal(let before) = previous, before.hasSuffix("="),
                    let start = before.dropLast().lastIndex(where: { $0 == "?" || $0 == "&" })
                else {
                    throw DynamicMessageProblem(token: index, "\(found.written) must be a query parameter's value")
                }
                names[token] = String(before[before.index(after: start)..<before.index(before: before.endIndex)])
            }
            if names.count == KeyedMemoryToken.allCases.count { return KeyedMemoryTapLayout(names: names) }
        }
        throw DynamicMessageProblem("no template string holds all of \(tokens.map(\.written).joined(separator: ", "))")
    }

    public func checkKeys(_ key: @escaping TagKey) throws {
        _ = try key([UInt8](repeating: 0, count: 7), KeyedMemoryFamily.macKey)
    }

    public func verifyTap(_ url: String, layout: any TapLayout, key tagKey: @escaping TagKey) -> TapVerification {
        func invalid(_ detail: String, uid: [UInt8]? = nil, counter: UInt32? = nil) -> TapVerification {
            TapVerification(isValid: false, uid: uid, counter: counter, detail: detail)
        }
        guard let layout = layout as? KeyedMemoryTapLayout else { return invalid("not a KMAC URL layout") }
        let values = layout.values(in: url)
        guard let uidText = values[.uid], let uid = Hex.bytes(uidText), uid.count == 7,
            let counterText = values[.counter], counterText.count == 8, let counter = UInt32(counterText, radix: 16),
            let macText = values[.mac], let mac = Hex.bytes(macText), mac.count == 8
        else { return invalid("the URL does not carry a KMAC's uid, counter and MAC") }
        let key: SecretKey
        do {
            key = try tagKey(uid, KeyedMemoryFamily.macKey)
        } catch {
            return invalid("cannot check: \(error)", uid: uid, counter: counter)
        }
        guard KeyedMemoryFamily.mac(key: key, uid: uid, counter: counter) == mac else {
            return invalid("KMAC MAC does not verify", uid: uid, counter: counter)
        }
        return TapVerification(isValid: true, uid: uid, counter: counter, detail: "KMAC valid")
    }

    /// `D6` and `D7` for K0 and K1, after the message was read; with `deepKey`, one `D3` with it as K0.
    public func readKeyedState(_ tag: any FamilyTag, deepKey: SecretKey?) throws -> KeyedTagReading? {
        guard let native = tag.keyed as? KeyedMemoryFamilyTag else { return nil }
        var reading = KeyedTagReading(
            settings: try native.settings(), keyVersions: try keyNumbers.map { try native.keyVersion($0) })
        if let deepKey {
            do {
                try native.authenticate(deepKeyNumber, key: deepKey)
                reading.deepAuthentication = true
            } catch let refusal as KeyedMemoryRefusal where refusal.isAuthentication {
                reading.deepAuthentication = false
            }
            try native.reactivate()
        }
        return reading
    }
}

/// Where a tap URL carries the KMAC: the query parameter of each token.
public struct KeyedMemoryTapLayout: TapLayout {
    /// The parameter names, by token.
    public var names: [KeyedMemoryToken: String]

    /// The tokens' values in `url`.
    func values(in url: String) -> [KeyedMemoryToken: String] {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
        var byName: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { byName[String(parts[0])] = String(parts[1]) }
        }
        return names.compactMapValues { byName[$0] }
    }

    public func masked(_ url: String) -> String {
        guard let mark = url.firstIndex(of: "?") else { return url }
        let query = url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map {
            pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let token = names.first(where: { $0.value == parts[0] })?.key else {
                return String(pair)
            }
            return "\(parts[0])=" + token.token.filler(marked: false)
        }
        return String(url[...mark]) + query.joined(separator: "&")
    }
}
