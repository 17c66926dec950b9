/// A deterministic misbehaviour schedule: entry `i` applies to the `i`-th tag of the population.
///
/// ```
/// LIST  = ENTRY ("," ENTRY)*
/// ENTRY = "-"                  the tag behaves
///       | KIND "@" N           KIND happens at the N-th (1-based) tag exchange of that tag
/// ```
///
/// The kinds depend on who misbehaves: the tag (`sim:` spec option `plan=`, `TagAnswerFault`), the
/// PN532 front end (`PN532Misbehaviour`) or the vpcd front end (`VPCDMisbehaviour`). Tags past the end
/// of the list behave. Example: `garbage:4@3,-,nak:5@7,-`.
public struct FaultPlan<Kind: Sendable & Hashable>: Sendable, Hashable {
    /// One scheduled misbehaviour.
    public struct Entry: Sendable, Hashable {
        /// What happens.
        public var kind: Kind
        /// At which tag exchange (1-based) of the tag.
        public var exchange: Int

        /// Creates an entry.
        public init(_ kind: Kind, at exchange: Int) {
            self.kind = kind
            self.exchange = exchange
        }
    }

    /// Per population index, the misbehaviour of that tag (`nil`: it behaves).
    public var entries: [Entry?]

    /// Creates a plan from entries.
    public init(_ entries: [Entry?] = []) { self.entries = entries }

    /// Parses a list; `kind` turns one KIND word into a kind, or `nil` when it is unknown.
    ///
    /// - Throws: a message naming the bad entry.
    public init(parsing text: String, kind: (String) -> Kind?) throws(FaultPlanError) {
        var entries: [Entry?] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let word = item.filter { $0 != " " }
            if word == "-" {
                entries.append(nil)
                continue
            }
            let parts = word.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let exchange = Int(parts[1]), exchange >= 1 else {
                throw FaultPlanError("entry '\(word)' must be KIND@EXCHANGE (EXCHANGE ≥ 1) or '-'")
            }
            guard let parsed = kind(parts[0]) else { throw FaultPlanError("unknown kind '\(parts[0])' in '\(word)'") }
            entries.append(Entry(parsed, at: exchange))
        }
        self.entries = entries
    }

    /// The entries resolved to UIDs (`uid(i)`: the UID of the population's tag at index `i`).
    public func byUID(_ uid: (Int) -> [UInt8]) -> [[UInt8]: Entry] {
        var resolved: [[UInt8]: Entry] = [:]
        for (index, entry) in entries.enumerated() {
            if let entry { resolved[uid(index)] = entry }
        }
        return resolved
    }

    /// The entry for the tag at population `index`, if any.
    public func entry(forTagAt index: Int) -> Entry? {
        entries.indices.contains(index) ? entries[index] : nil
    }

    /// Whether no tag misbehaves.
    public var isEmpty: Bool { entries.allSatisfy { $0 == nil } }
}

/// A fault plan that does not parse.
public struct FaultPlanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// A front end's running copy of a plan: counts each tag's exchanges by UID and fires every entry once.
///
/// Not `Sendable`: owned by one front end's I/O thread.
public final class FaultSchedule<Kind: Sendable & Hashable> {
    private var pending: [[UInt8]: FaultPlan<Kind>.Entry] = [:]
    private var exchanges: [[UInt8]: Int] = [:]
    /// Misbehaviours carried out so far, in order.
    public private(set) var fired: [(uid: [UInt8], kind: Kind, exchange: Int)] = []

    /// Resolves `plan` to UIDs (`uid(i)`: the UID of the population's tag at index `i`).
    public init(_ plan: FaultPlan<Kind>, uid: (Int) -> [UInt8]) {
        pending = plan.byUID(uid)
    }

    /// Takes entries already resolved to UIDs.
    public init(byUID entries: [[UInt8]: FaultPlan<Kind>.Entry]) { pending = entries }

    /// Counts one tag exchange of `uid`; returns the kind to carry out now, if one is due.
    public func tick(uid: [UInt8]) -> Kind? {
        guard let entry = pending[uid] else { return nil }
        let count = (exchanges[uid] ?? 0) + 1
        exchanges[uid] = count
        guard count == entry.exchange else { return nil }
        pending[uid] = nil
        fired.append((uid, entry.kind, count))
        return entry.kind
    }

    /// Counters for `stats`.
    public var statsLine: String {
        "misbehaved=\(fired.count) planned=\(fired.count + pending.count)"
    }
}

/// The KIND words of a tag's own misbehaviour (`plan=` of a `sim:` spec).
public enum TagAnswerFault {
    /// `garbage:N`, `short:N`, `long:N`, `nak:C` (C hex, 0–F), `sw:XXXX` (Type 4: the APDU is carried out and
    /// answered with only that status word) and `silence`.
    public static func parse(_ word: String) -> TagPlanKind? {
        let parts = word.split(separator: ":", maxSplits: 1).map(String.init)
        if parts == ["silence"] { return .silence }
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "garbage": return Int(parts[1]).flatMap { (1...64).contains($0) ? .answer(.garbage($0)) : nil }
        case "short": return Int(parts[1]).flatMap { (1...64).contains($0) ? .answer(.short($0)) : nil }
        case "long": return Int(parts[1]).flatMap { (1...64).contains($0) ? .answer(.long($0)) : nil }
        case "nak": return UInt8(parts[1], radix: 16).flatMap { $0 <= 0x0F ? .answer(.nak($0)) : nil }
        case "sw": return parts[1].count == 4 ? UInt16(parts[1], radix: 16).map { .answer(.status($0)) } : nil
        default: return nil
        }
    }
}

/// What a planned tag does at its exchange: a wrong answer, or none at all.
public enum TagPlanKind: Sendable, Hashable {
    /// A wrong answer.
    case answer(AnswerFault)
    /// No answer (flaky RF); the tag drops to IDLE.
    case silence
}
