import NFCTags
import Support

/// One KMEM-1's keyed personalisation, the shipped keyed chip's plan in miniature:
///
/// ```
/// (resumed)  D7 + ≤ 2 × D3, D0 again       settle each key change whose answer was lost (new key first when the
///                                          version says so, never a third guess)
/// (resumed)  D6                            were the settings (so the message) already made?
/// lock       D3 K0                         the K0 the tag holds (delivery or job)
/// write      D4                            the row's message, windows as zeros
/// lock       D5, D9 (permanent)            the KMAC windows and rights (counter to 0), the lock
///            D8 K1, D8 K0                  each journaled first (intend → send → resolve); K0 last
/// verify     D2                            unauthenticated, as a phone: bytes, UID, counter and MAC checked
/// ```
public struct KeyedMemoryPlan: KeyedPlan {
    /// The job's K0 and K1 for this tag.
    public var keys: [SecretKey]
    /// The row's layout.
    public var layout: KeyedMemoryLayout
    /// Whether the tag is locked for good.
    public var permanent: Bool
    public var journal: any KeyJournal
    /// Key changes left intended by an earlier attempt (their answer was lost).
    public var open: [KeyChange]
    /// Key numbers already at the job's key.
    public var done: Set<Int>
    /// Whether an earlier attempt may have changed the tag.
    public var resumed: Bool
    public var locks: Bool { permanent }

    /// The order of the key changes: K1, then K0 (which ends the session).
    static let order = [1, 0]

    /// Creates the plan; `history` is the tag's key journal so far.
    public init(
        keys: [SecretKey], layout: KeyedMemoryLayout, permanent: Bool, journal: any KeyJournal,
        history: [KeyChange], resumed: Bool
    ) {
        self.keys = keys
        self.layout = layout
        self.permanent = permanent
        self.journal = journal
        open = history.filter { $0.state == .intended }
        done = Set(
            history.filter { $0.state == .done && keys[$0.keyNumber].matches(fingerprint: $0.newFingerprint) == true }
                .map(\.keyNumber))
        self.resumed = resumed || !history.isEmpty
    }

    /// The key `number` the tag holds when `changed` lists the keys already at the job's.
    func current(_ number: Int, changed: Set<Int>) -> SecretKey {
        changed.contains(number) ? keys[number] : KeyedMemoryFamily.deliveryKeys[number]
    }

    /// The journal entry of key `number`'s change.
    func change(_ number: Int, uid: [UInt8], changed: Set<Int>) -> KeyChange {
        KeyChange(
            uid: uid, keyNumber: number, oldVersion: 0, newVersion: Int(KeyedMemoryFamily.jobKeyVersion),
            keyID: keys[number].id, oldFingerprint: current(number, changed: changed).fingerprint,
            newFingerprint: keys[number].fingerprint)
    }

    public func run(on family: any FamilyTag, message: [UInt8], uid: [UInt8], steps: any KeyedSteps) throws -> UInt32? {
        guard let tag = family.keyed as? KeyedMemoryFamilyTag else {
            throw KeyedFailure(.wrongChip, phase: .identify, "keyed personalisation needs a KMEM-1")
        }
        var changed = done
        if !open.isEmpty {
            steps.keysMayChange()
            try steps.timed(.lock) { changed.formUnion(try settle(on: tag, changed: changed)) }
        }
        var counter: UInt32? = 1
        if changed.contains(KeyedMemoryFamily.masterKey) {
            // K0 is changed last: a tag holding the job's K0 has everything but the read-back.
            counter = nil
            steps.foundWritten()
        } else {
            let made = try resumed && steps.timed(.identify) { try tag.settings() == layout.settingsAnswer }
            if made {
                counter = nil
                steps.foundWritten()
            }
            try personalise(tag, message: message, uid: uid, settingsMade: made, changed: changed, steps: steps)
        }
        return try steps.timed(.verify) {
            let read = try tag.readNDEF()
            do {
                return try layout.checkReadBack(read, written: message, uid: uid, keys: keys, counter: counter)
            } catch {
                throw KeyedFailure(.verifyMismatch, phase: .verify, "unauthenticated read-back: \(error)")
            }
        }
    }

    /// The K0 session: message and settings unless an earlier attempt made them, the lock, the journaled keys.
    private func personalise(
        _ tag: KeyedMemoryFamilyTag, message: [UInt8], uid: [UInt8], settingsMade: Bool, changed: Set<Int>,
        steps: any KeyedSteps
    ) throws {
        try steps.timed(.lock) {
            try refused(as: .protectFailed) { try tag.authenticate(0, key: current(0, changed: changed)) }
        }
        if !settingsMade {
            steps.wrote()
            try steps.timed(.write) { try refused(as: .lockFailed) { try tag.writeMessage(message) } }
        }
        try steps.timed(.lock) {
            try refused(as: .lockFailed) {
                if !settingsMade { try tag.setSettings(layout.settingsAnswer) }
                if permanent { try tag.lock() }
            }
            steps.keysMayChange()
            for number in Self.order where !changed.contains(number) {
                try journal.intend(change(number, uid: uid, changed: changed))
                try refused(as: .protectFailed) {
                    try tag.changeKey(number, to: keys[number], version: KeyedMemoryFamily.jobKeyVersion)
                }
                try journal.resolve(uid: uid, keyNumber: number, as: .done)
            }
        }
    }

    /// Settles each open change: `D7` names the likelier key, then at most one `D3` with each candidate.
    ///
    /// - Returns: the key numbers now at the job's key.
    private func settle(on tag: KeyedMemoryFamilyTag, changed: Set<Int>) throws -> Set<Int> {
        var settled: Set<Int> = []
        for change in open {
            let number = change.keyNumber
            let newFirst = Int(try tag.keyVersion(number)) == change.newVersion
            var holds: Bool?
            for isNew in newFirst ? [true, false] : [false, true] {
                let key = isNew ? keys[number] : current(number, changed: changed)
                do {
                    try tag.authenticate(number, key: key)
                    holds = isNew
                    break
                } catch let refusal as KeyedMemoryRefusal where refusal.isAuthentication {
                    continue
                }
            }
            try tag.reactivate()
            guard let isNew = holds else {
                throw KeyedFailure(
                    .protectFailed, phase: .lock,
                    "the tag takes neither the journaled old nor new key \(number); it needs an engineer")
            }
            try journal.resolve(uid: change.uid, keyNumber: number, as: isNew ? .done : .abandoned)
            if isNew { settled.insert(number) }
        }
        return settled
    }

    /// Runs `body`, making the tag's refusal a `KeyedFailure` of `kind`.
    private func refused(as kind: KeyedFailure.Kind, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let refusal as KeyedMemoryRefusal {
            let what = refusal.isAuthentication ? "refused the key the ledger names for it" : "refused"
            throw KeyedFailure(kind, phase: .lock, "the KMEM-1 \(what): \(refusal)")
        }
    }
}
