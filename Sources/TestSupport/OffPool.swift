import Foundation

/// Runs blocking work (a child process, a `poll` loop on a pty) on a fresh thread and awaits it, so
/// tests never hold one of the few cooperative-pool threads that other suites' tasks need.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}
