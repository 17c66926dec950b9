import Support

/// Changes an NTAG 424 DNA's application keys from the keys it holds to a job's keys, journaled: K1–K4 first and
/// K0 last (changing K0 ends the session), each ChangeKey `90 C4` preceded by a durable intent. A change whose
/// answer was lost is settled on the tag's next presentation by `resolve`: GetKeyVersion `90 64` names the
/// candidate, at most one authentication with it, then with the other; never a third guess (failed
/// authentications count toward the chip's permanent limit).
public struct NTAG424KeyRollout: Sendable {
    /// The keys the tag holds now (factory: all zero, version 0), K0…K4.
    public var current: [SecretKey]
    /// The keys it is to hold, K0…K4.
    public var target: [SecretKey]
    /// The key version every new key gets.
    public var version: UInt8

    /// The order of the changes: K1–K4, then K0.
    public static let order: [UInt8] = [1, 2, 3, 4, 0]

    /// Creates a rollout from `current` to `target` keys (five each).
    public init(current: [SecretKey], target: [SecretKey], version: UInt8) {
        self.current = current
        self.target = target
        self.version = version
    }

    /// The journal entry of key `number`'s change on the tag `uid`.
    public func change(_ number: UInt8, uid: [UInt8], oldVersion: UInt8) -> KeyChange {
        let index = Int(number)
        return KeyChange(
            uid: uid, keyNumber: index, oldVersion: Int(oldVersion), newVersion: Int(version),
            keyID: target[index].id, oldFingerprint: current[index].fingerprint,
            newFingerprint: target[index].fingerprint)
    }

    /// AuthenticateEV2First `90 71` with key `number`, the target key (`new`) or the one the tag held before.
    public func authenticate(_ tag: NTAG424Tag, keyNumber number: UInt8, new: Bool) throws {
        let key = new ? target[Int(number)] : current[Int(number)]
        try tag.authenticateEV2First(keyNumber: number, key: key.bytes)
    }

    /// Runs the changes on `tag`, whose session is open with the current K0 (`authenticateEV2First`), keys not
    /// changed yet (`done` lists those already at `target`). Each intent is journaled before its ChangeKey and
    /// resolved `done` after the tag's answer; a failure leaves that intent open and rethrows.
    public func run(
        on tag: NTAG424Tag, uid: [UInt8], oldVersion: UInt8, journal: any KeyJournal, done: Set<Int> = []
    ) throws {
        for number in Self.order where !done.contains(Int(number)) {
            let index = Int(number)
            try journal.intend(change(number, uid: uid, oldVersion: oldVersion))
            try tag.changeKey(number, to: target[index].bytes, from: current[index].bytes, version: version)
            try journal.resolve(uid: uid, keyNumber: index, as: .done)
        }
    }

    /// Settles the open changes `open` on a freshly selected `tag` (no session): per change, GetKeyVersion, then
    /// EV2First with the candidate the version names and, if the tag refuses it (`91 AE`), with the other one.
    ///
    /// - Returns: the key numbers now at `target`.
    /// - Throws: `KeyRolloutError.neitherKey` when the tag takes neither candidate (the ledger cannot name the key:
    ///   the tag needs an engineer), `NTAG424Error` and transport errors as they come.
    public func resolve(_ open: [KeyChange], on tag: NTAG424Tag, journal: any KeyJournal) throws -> Set<Int> {
        var changed: Set<Int> = []
        for change in open {
            let number = UInt8(change.keyNumber)
            let reported = try tag.getKeyVersion(number)
            let newFirst = Int(reported) == change.newVersion
            let candidates = newFirst ? [true, false] : [false, true]
            var settled: Bool?
            for isNew in candidates {
                do {
                    try authenticate(tag, keyNumber: number, new: isNew)
                    settled = isNew
                    break
                } catch let error as NTAG424Error where error.kind == .authentication {
                    continue
                }
            }
            tag.endSession()
            guard let isNew = settled else { throw KeyRolloutError.neitherKey(keyNumber: change.keyNumber) }
            try journal.resolve(uid: change.uid, keyNumber: change.keyNumber, as: isNew ? .done : .abandoned)
            if isNew { changed.insert(change.keyNumber) }
        }
        return changed
    }
}

/// A key rollout that cannot go on.
public enum KeyRolloutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The tag accepted neither the old nor the new key `keyNumber` (its key is not one the ledger names).
    case neitherKey(keyNumber: Int)

    public var description: String {
        switch self {
        case .neitherKey(let number):
            "the tag takes neither the journaled old nor new key \(number); it needs an engineer, not a third guess"
        }
    }
}
