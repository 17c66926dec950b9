import NFCTags
import Support
import Synchronization

/// A key journal in memory with the ledger's rules (one open change per key, each resolved once), for tests of a
/// family's keyed plan without a ledger.
public final class MemoryKeyJournal: KeyJournal, Sendable {
    /// A call the ledger would refuse.
    public struct Violation: Error, CustomStringConvertible {
        public let description: String
    }

    private let entries = Mutex<[KeyChange]>([])

    /// An empty journal.
    public init() {}

    /// Every change journaled so far, in order, with its current state.
    public var changes: [KeyChange] { entries.withLock { $0 } }
    /// The changes still intended (their answer was lost).
    public var open: [KeyChange] { changes.filter { $0.state == .intended } }
    /// The key numbers with a change done.
    public var done: Set<Int> { Set(changes.filter { $0.state == .done }.map(\.keyNumber)) }

    public func intend(_ change: KeyChange) throws {
        try entries.withLock { entries in
            guard !entries.contains(where: { $0.keyNumber == change.keyNumber && $0.state == .intended }) else {
                throw Violation(description: "key \(change.keyNumber) already has an open change")
            }
            entries.append(change)
        }
    }

    public func resolve(uid: [UInt8], keyNumber: Int, as state: KeyChange.State) throws {
        try entries.withLock { entries in
            guard let index = entries.lastIndex(where: { $0.keyNumber == keyNumber && $0.state == .intended }) else {
                throw Violation(description: "key \(keyNumber) has no open change to resolve")
            }
            entries[index].state = state
        }
    }
}
