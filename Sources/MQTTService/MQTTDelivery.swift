import Synchronization

/// One message handed to the client, and the wait for its PUBACK.
///
/// `sequence` numbers the messages of one client in send order, across reconnects, and is never reused (unlike
/// MQTT's 16-bit message ids): a publisher maps it to its own durable id.
public struct MQTTDelivery: Sendable {
    /// The client's send-order number of this message.
    public let sequence: UInt64
    /// The message.
    public let message: MQTTMessage
    let signal: AckSignal

    /// Returns once the broker acknowledged the message (PUBACK for QoS 1; written for QoS 0).
    ///
    /// - Throws: `MQTTError` `.connectionLost` when the connection went down first: the message may or may not
    ///   have reached the broker, and the client will not send it again by itself; `.cancelled` when the waiting
    ///   task is cancelled (the message stays in flight and is acknowledged or reported as usual).
    public func acknowledged() async throws(MQTTError) { try await signal.wait() }
}

/// How the connection changed; read from `MQTTClient.events`.
public enum MQTTConnectionEvent: Sendable {
    /// The broker accepted the connection (CONNACK 0).
    case connected
    /// A connection that was up has ended: `error` is `nil` after `disconnect()`, else `.connectionLost`.
    /// `unacknowledged` lists, in send order, every message handed over on it whose PUBACK never came.
    case disconnected(MQTTError?, unacknowledged: [MQTTDelivery])
}

/// A one-shot result many tasks can wait for: resolved once, from any thread (libmosquitto's callbacks).
final class AckSignal: Sendable {
    private typealias Waiter = CheckedContinuation<Result<Void, MQTTError>, Never>
    private enum State {
        case waiting([UInt64: Waiter], next: UInt64)
        case done(Result<Void, MQTTError>)
    }
    private let state = Mutex(State.waiting([:], next: 0))

    /// Resolves the signal (the first call wins) and wakes every waiter.
    func resolve(_ result: Result<Void, MQTTError>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard case .waiting(let waiters, _) = state else { return [] }
            state = .done(result)
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Waits until the signal is resolved and returns or throws its result.
    func wait() async throws(MQTTError) { try await result().get() }

    /// Waits until the signal is resolved and returns its result; a cancelled wait returns `.cancelled` at once and
    /// leaves the signal (and other waiters) as they are.
    func result() async -> Result<Void, MQTTError> {
        let ticket = state.withLock { state -> UInt64 in
            guard case .waiting(let waiters, let next) = state else { return 0 }
            state = .waiting(waiters, next: next + 1)
            return next
        }
        let cancelled = MQTTError(.cancelled, "the wait for the acknowledgement was cancelled")
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                let now = state.withLock { state -> Result<Void, MQTTError>? in
                    switch state {
                    case .done(let result): return result
                    case .waiting(var waiters, let next):
                        if Task.isCancelled { return .failure(cancelled) }
                        waiters[ticket] = waiter
                        state = .waiting(waiters, next: next)
                        return nil
                    }
                }
                if let now { waiter.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard case .waiting(var waiters, let next) = state else { return nil }
                let waiter = waiters.removeValue(forKey: ticket)
                state = .waiting(waiters, next: next)
                return waiter
            }
            waiter?.resume(returning: .failure(cancelled))
        }
    }
}
