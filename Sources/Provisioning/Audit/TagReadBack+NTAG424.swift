import NFCTags

/// What an audit reads from a keyed NTAG 424 DNA besides its message, all unauthenticated unless `--deep`.
public struct NTAG424Reading: Sendable, Hashable {
    /// The GetFileSettings answer of the NDEF file (FileType … SDM fields).
    public var fileSettings: [UInt8]
    /// GetKeyVersion of K0…K4.
    public var keyVersions: [UInt8]
    /// Whether the job's K0 opened a session (`nil`: not tried).
    public var deepAuthentication: Bool?
}

extension TagReadBack {
    /// GetFileSettings `90 F5 02` and GetKeyVersion `90 64` of K0–K4 (free, plain), after the message was read
    /// (so the SUN the read produced is the one a phone gets); with `deepKey`, one AuthenticateEV2First `90 71`
    /// with it (a refusal counts toward the key's failure counter, hence only on request).
    static func readNTAG424(_ tag: any FamilyTag, deepKey: SecretKey?) throws -> NTAG424Reading? {
        guard let native = tag.ntag424 else { return nil }
        let settings = try native.getFileSettings(0x02)
        var versions: [UInt8] = []
        for number in UInt8(0)...4 { versions.append(try native.getKeyVersion(number)) }
        var reading = NTAG424Reading(fileSettings: settings, keyVersions: versions)
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
}
