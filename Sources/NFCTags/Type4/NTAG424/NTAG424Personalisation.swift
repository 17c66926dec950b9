import Support

/// One NTAG 424 DNA's keyed personalisation in `run` (docs/authentication.md): the row's NDEF template, the
/// NDEF file's settings (SDM and the lock mode's rights), the CC's write byte for `permanent`, then the job's
/// keys K1–K4 and K0 through the ledger's key journal, and the read-back a phone would make.
///
/// What an earlier attempt on the same tag left is part of the plan: `open` key changes whose answer was lost
/// (settled first, `NTAG424KeyRollout.resolve`) and the keys already `done`. The pipeline runs it as the family's
/// `KeyedPlan` (`NTAG424Personalisation+Run.swift`).
public struct NTAG424Personalisation: KeyedPlan {
    /// The job's keys K0–K4 for this tag (diversified), and their version.
    public var keys: [SecretKey]
    /// The key version the job's keys carry.
    public var version: UInt8
    /// The NDEF file's settings (file 02).
    public var settings: Type4FileSettings
    /// Whether the CC's NDEF write byte becomes `FF` (lock `permanent`).
    public var permanent: Bool
    /// The ledger's key journal.
    public var journal: any KeyJournal
    /// Key changes of this tag left intended (their answer was lost).
    public var open: [KeyChange]
    /// Key numbers already at the job's key.
    public var done: Set<Int>
    /// Whether an earlier attempt may have changed the tag (the file settings are then read before writing).
    public var resumed: Bool
    /// The unauthenticated read-back check.
    public var readBack: SUNReadBack
    /// Whether the tag ends locked (`permanent`).
    public var locks: Bool { permanent }

    /// The NTAG 424 DNA's NDEF file number and the CC file's.
    static let ndefFile: UInt8 = 0x02
    static let ccFile: UInt8 = 0x01
    /// The NDEF file's size (bytes), which SDM offsets must fit; the GetFileSettings answer carries it.
    public static let ndefFileSize = SUNLayout.ndefFileSize

    /// Creates the plan for the tag `uid` of a job with `keys`; `history` is the tag's key journal so far.
    public init(
        keys jobKeys: NTAG424JobKeys, uid: [UInt8], settings: Type4FileSettings, permanent: Bool,
        journal: any KeyJournal, history: [KeyChange], resumed: Bool
    ) throws {
        try self.init(
            keys: try jobKeys.keys(uid: uid), version: jobKeys.version, settings: settings, permanent: permanent,
            journal: journal, history: history, resumed: resumed)
    }

    /// Creates the plan for a tag whose job keys K0–K4 are `keys`; `history` is the tag's key journal so far.
    public init(
        keys: [SecretKey], version: UInt8 = NTAG424JobKeys.jobKeyVersion, settings: Type4FileSettings,
        permanent: Bool, journal: any KeyJournal, history: [KeyChange], resumed: Bool
    ) throws {
        self.keys = keys
        self.version = version
        self.settings = settings
        self.permanent = permanent
        self.journal = journal
        open = history.filter { $0.state == .intended }
        let targets = keys
        done = Set(
            history.filter {
                $0.state == .done && targets[$0.keyNumber].matches(fingerprint: $0.newFingerprint) == true
            }
            .map(\.keyNumber))
        self.resumed = resumed || !history.isEmpty
        readBack = SUNReadBack(sdm: settings.sdm, metaReadKey: keys[1], fileReadKey: keys[2])
    }

    /// The rollout from the keys the tag holds (the job's for `changed`, the delivery keys otherwise).
    public func rollout(changed: Set<Int>) -> NTAG424KeyRollout {
        let current = (0..<5).map { changed.contains($0) ? keys[$0] : NTAG424JobKeys.factory[$0] }
        return NTAG424KeyRollout(current: current, target: keys, version: version)
    }

    /// Whether a GetFileSettings `90 F5` answer (FileType ‖ FileOption ‖ AccessRights ‖ FileSize ‖ SDM fields)
    /// shows exactly `settings`.
    public func holdsSettings(_ answer: [UInt8]) -> Bool {
        answer == settings.fileSettingsAnswer(fileSize: Self.ndefFileSize)
    }

    /// The largest WriteData piece: 255 bytes of APDU data less FileNo, Offset and Length (7).
    static let writePiece = 248

    /// Writes `message` into the NDEF file with WriteData `90 8D 02` in plain mode (an open session, file 02's
    /// free write right), in the tear-safe order of the T4T update: NLEN `0000` unless detection read it as 0,
    /// the body in pieces, the real NLEN last.
    public func writeTemplate(_ message: [UInt8], on tag: NTAG424Tag) throws {
        if tag.tag.knownLengthField.map({ $0.contains { $0 != 0 } }) ?? true {
            try tag.writeData(Self.ndefFile, offset: 0, [0, 0], mode: .plain)
        }
        var offset = 0
        while offset < message.count {
            let piece = Array(message[offset..<min(offset + Self.writePiece, message.count)])
            try tag.writeData(Self.ndefFile, offset: 2 + offset, piece, mode: .plain)
            offset += piece.count
        }
        try tag.writeData(
            Self.ndefFile, offset: 0, [UInt8(message.count >> 8), UInt8(message.count & 0xFF)], mode: .plain)
    }

    /// The journal entry's old version: the delivery keys' `00`.
    static let deliveryVersion: UInt8 = 0x00
}
