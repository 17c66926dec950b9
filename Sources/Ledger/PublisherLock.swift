import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One publisher's hold on a job's outbox (`LedgerStore.acquirePublisherLock`), so only one process at a time
/// publishes a job's events: held until `release()` or until the process (or its ledger session) ends.
public final class PublisherLock: Sendable {
    /// The job whose outbox is held.
    public let job: String
    /// Where the lock lives, for messages: the lock file, or the ledger server's advisory lock.
    public let holder: String
    private let releaseAction: Mutex<(@Sendable () async -> Void)?>

    init(job: String, holder: String, release: @escaping @Sendable () async -> Void) {
        self.job = job
        self.holder = holder
        releaseAction = Mutex(release)
    }

    /// Gives the lock up (once; later calls do nothing).
    public func release() async {
        let action = releaseAction.withLock { action in
            defer { action = nil }
            return action
        }
        await action?()
    }
}

extension Ledger {
    /// Takes job `job`'s publisher lock without waiting: an exclusive `flock` on a side file next to the ledger
    /// (`LEDGER.publisher-HASH.lock`, one a job), or `nil` when another process holds it.
    ///
    /// - Throws: `.cannotOpen` when the lock file cannot be created.
    public func acquirePublisherLock(job: String) async throws(LedgerError) -> PublisherLock? {
        let path = "\(self.path).publisher-\(Self.jobHash(job)).lock"
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw LedgerError(
                .cannotOpen, "cannot open the publisher lock file \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return PublisherLock(job: job, holder: path) {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// A stable 64-bit FNV-1a hash of `job`, in hex, for a file name any job name fits in.
    static func jobHash(_ job: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in job.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return String(hash, radix: 16)
    }
}
