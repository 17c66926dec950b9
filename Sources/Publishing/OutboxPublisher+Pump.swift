import Foundation
import Ledger
import MQTTService

/// The publisher's background work: the pump (read, send, await PUBACKs, mark), reconnection with backoff, the
/// backlog count and the waits on it.
extension OutboxPublisher {
    /// Sends the outbox in sequence order until stopped: reconnects with backoff while the broker is away, marks
    /// each batch's acknowledged prefix published, and sends the rest again (in order) after a reconnect.
    func runPump() async {
        var pause = Self.firstPause
        var cursor = 0
        var unmarked: [String] = []
        while !Task.isCancelled, !stopping {
            if !(await client.isConnected) {
                if !inOutage { announceOutage("the connection to \(configuration.endpoint) was lost") }
                try? await Task.sleep(for: pause)
                guard !Task.isCancelled, !stopping else { return }
                do {
                    try await client.reconnect()
                    await wentOnline()
                    pause = Self.firstPause
                    cursor = 0
                } catch {
                    announceOutage(error.description)
                    pause = min(pause * 2, Self.longestPause)
                }
                continue
            }
            // Acknowledged events whose mark failed (a ledger outage) are marked before anything more is sent.
            if !unmarked.isEmpty {
                guard await mark(unmarked) else {
                    await pumpWake.wait(upTo: Self.pollInterval)
                    continue
                }
                unmarked = []
            }
            let events: [OutboxEvent]
            do {
                events = try await store.outboxEvents(
                    job: job, station: scopeStation, after: cursor, limit: Self.batchSize, unpublishedOnly: true)
            } catch {
                await pumpWake.wait(upTo: Self.pollInterval)
                continue
            }
            if events.isEmpty {
                await pumpWake.wait(upTo: Self.pollInterval)
                continue
            }
            let acknowledged = await send(events)
            if let last = acknowledged.last { cursor = last.sequence }
            let ids = acknowledged.map(\.id)
            if !ids.isEmpty, !(await mark(ids)) { unmarked = ids }
            if acknowledged.count < events.count {
                if !stopping { announceOutage("the connection to \(configuration.endpoint) was lost") }
            } else if events.count < Self.batchSize {
                await refreshBacklog()
            }
        }
    }

    /// Hands `events` to the client in order and waits for their PUBACKs in order; returns the acknowledged prefix
    /// (shorter when the connection went down or the pump was cancelled).
    private func send(_ events: [OutboxEvent]) async -> ArraySlice<OutboxEvent> {
        var deliveries: [MQTTDelivery] = []
        for event in events {
            let message = OutboxMessages.event(
                event, endpoint: configuration.endpoint, job: job, station: station)
            guard let delivery = try? await client.send(message) else { break }
            deliveries.append(delivery)
            inFlight += 1
        }
        var acknowledged = 0
        for delivery in deliveries {
            guard (try? await delivery.acknowledged()) != nil else { break }
            acknowledged += 1
        }
        inFlight = 0
        return events[..<acknowledged]
    }

    /// Marks `ids` published; `false` when the ledger refused (they are marked again later).
    private func mark(_ ids: [String]) async -> Bool {
        markEpoch += 1
        guard let marked = try? await store.markPublished(ids: ids, at: Date()) else { return false }
        markEpoch += 1
        markedCount += marked
        knownBacklog = max(0, knownBacklog - marked)
        backlogChanged()
        return true
    }

    /// A connection is up: ends an outage (`.brokerBack`) and publishes the retained online status.
    func wentOnline() async {
        if inOutage {
            inOutage = false
            noticeSink.yield(.brokerBack)
        }
        let online = OutboxMessages.status(
            online: true, endpoint: configuration.endpoint, station: station, job: job, details: statusDetails,
            since: Date())
        _ = try? await client.send(online)
    }

    /// Starts an outage with one `.brokerDown` notice (none while one is current).
    func announceOutage(_ reason: String) {
        guard !inOutage, !stopping else { return }
        inOutage = true
        noticeSink.yield(.brokerDown(reason))
    }

    /// The client's connection changed: a dropped connection is announced and wakes the pump to reconnect.
    func connectionChanged(_ event: MQTTConnectionEvent) async {
        guard case .disconnected(let error?, _) = event, !stopping else { return }
        // A late report of a connection the pump has already replaced changes nothing.
        guard !(await client.isConnected) else { return }
        announceOutage(error.description)
        pumpWake.signal()
    }

    /// Counts the backlog on a nudge or once a second until stopped, so the waits see events of any writer.
    func watchBacklog() async {
        while !Task.isCancelled {
            await refreshBacklog()
            await countWake.wait(upTo: Self.pollInterval)
        }
    }

    /// Counts the job's unpublished events in the ledger; a count that ran while a mark did, or that a newer
    /// count overtook, is not kept as the backlog. A ledger that cannot be read leaves the last count.
    func refreshBacklog() async { _ = await countBacklog() }

    /// Counts the job's unpublished events in the ledger (`nil`: the ledger cannot be read) and keeps the count as
    /// the backlog unless a mark ran meanwhile or a newer count overtook it.
    func countBacklog() async -> Int? {
        nextCount += 1
        let (ticket, epoch) = (nextCount, markEpoch)
        guard let count = try? await store.outboxBacklog(job: job, station: scopeStation) else { return nil }
        if ticket > appliedCount, epoch == markEpoch {
            appliedCount = ticket
            knownBacklog = count
            backlogChanged()
        }
        return count
    }

    /// Ends the waits whose limit the backlog is now below.
    func backlogChanged() {
        for (id, waiter) in backlogWaiters where knownBacklog < waiter.limit {
            backlogWaiters[id] = nil
            waiter.continuation.resume()
        }
    }

    /// Waits until the backlog is below `limit`, `deadline` passes, the caller is cancelled or the publisher
    /// stops; returns whether the backlog got below the limit.
    func waitBacklog(below limit: Int, deadline: ContinuousClock.Instant?) async -> Bool {
        guard knownBacklog >= limit else { return true }
        guard !stopping else { return false }
        let id = UUID()
        let timer = deadline.map { deadline in
            Task { [weak self] in
                try await Task.sleep(until: deadline)
                await self?.endWait(id)
            }
        }
        defer { timer?.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    backlogWaiters[id] = (limit, continuation)
                }
            }
        } onCancel: {
            Task { await self.endWait(id) }
        }
        return knownBacklog < limit
    }

    /// Ends wait `id` (its time ran out or its caller was cancelled), if still waiting.
    private func endWait(_ id: UUID) {
        backlogWaiters.removeValue(forKey: id)?.continuation.resume()
    }
}
