import Foundation
import Ledger
import MQTTService

/// The publisher's background work: the pump (read, send, await PUBACKs, mark), reconnection with backoff, the
/// backlog count and the waits on it.
extension OutboxPublisher {
    /// Events handed to the client, in sequence order, with their deliveries; the PUBACKs are awaited later.
    struct SentBatch {
        var events: ArraySlice<OutboxEvent>
        var deliveries: [MQTTDelivery]
    }

    /// Sends the outbox in sequence order until stopped: reconnects with backoff while the broker is away, marks
    /// each batch's acknowledged prefix published, and sends the rest again (in order) after a reconnect.
    ///
    /// Pipelined: the next batch is read and handed to the client before the PUBACKs of the previous one are
    /// awaited and marked, so the client's window stays full across batches. After a wake (a nudge, the poll) the
    /// pump lets events gather for `configuration.coalescing` before it reads, unless `drain`, `waitForBacklog` or
    /// `stop` hurries it, so a running line costs one read and one mark for many tags.
    func runPump() async {
        var pause = Self.firstPause
        var cursor = 0
        var unmarked: [String] = []
        var sent: SentBatch?
        while !Task.isCancelled, !stopping {
            if !(await client.isConnected) {
                // The previous connection's batch: its acknowledged prefix is marked, the rest is read again.
                if let batch = sent {
                    sent = nil
                    unmarked += await settle(batch).unmarked
                }
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
                if let batch = sent {
                    sent = nil
                    unmarked += await settle(batch).unmarked
                }
                await pumpWake.wait(upTo: Self.pollInterval)
                continue
            }
            let handed = await hand(events)
            if let last = handed.events.last { cursor = last.sequence }
            var complete = handed.events.count == events.count
            if let batch = sent {
                let settled = await settle(batch)
                unmarked += settled.unmarked
                complete = complete && settled.complete
            }
            sent = handed.events.isEmpty ? nil : handed
            if complete, events.count < Self.batchSize, let batch = sent {
                // Caught up: this batch is settled now, then the pump waits for more.
                sent = nil
                let settled = await settle(batch)
                unmarked += settled.unmarked
                complete = settled.complete
            }
            guard complete else {
                if !stopping { announceOutage("the connection to \(configuration.endpoint) was lost") }
                continue
            }
            if events.count < Self.batchSize {
                await refreshBacklog()
                await pumpWake.wait(upTo: Self.pollInterval)
                await gather(pumpHurry)
            }
        }
    }

    /// Lets nudged events gather for `configuration.coalescing`; returns at once while something hurries the
    /// publisher (`drain`, `waitForBacklog`, `stop`), or when hurried meanwhile.
    func gather(_ hurry: WakeSignal) async {
        guard configuration.coalescing > .zero, hurrying == 0, !stopping else { return }
        await hurry.wait(upTo: configuration.coalescing)
    }

    /// Hands `events` to the client in order (one hop to it), without waiting for PUBACKs; stops at the first the
    /// client refuses (no connection), so the batch may be shorter.
    private func hand(_ events: [OutboxEvent]) async -> SentBatch {
        guard !events.isEmpty else { return SentBatch(events: [], deliveries: []) }
        var messages: [MQTTMessage] = []
        messages.reserveCapacity(events.count)
        var last: (job: String?, station: String?, topic: String)?
        for event in events {
            let topic: String
            if let last, last.job == event.job, last.station == event.station {
                topic = last.topic
            } else {
                topic = OutboxMessages.eventTopic(event, endpoint: configuration.endpoint, job: job, station: station)
                last = (event.job, event.station, topic)
            }
            messages.append(OutboxMessages.event(event, topic: topic))
        }
        let deliveries = await client.send(contentsOf: messages)
        inFlight += deliveries.count
        return SentBatch(events: events[..<deliveries.count], deliveries: deliveries)
    }

    /// Waits for the PUBACKs of `batch` in order and marks the acknowledged prefix published; returns whether every
    /// event was acknowledged, and the acknowledged ids whose mark failed (marked again later).
    private func settle(_ batch: SentBatch) async -> (complete: Bool, unmarked: [String]) {
        var acknowledged = 0
        for delivery in batch.deliveries {
            guard (try? await delivery.acknowledged()) != nil else { break }
            acknowledged += 1
        }
        inFlight = max(0, inFlight - batch.deliveries.count)
        let ids = batch.events.prefix(acknowledged).map(\.id)
        let marked = ids.isEmpty ? true : await mark(ids)
        return (acknowledged == batch.events.count, marked ? [] : ids)
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

    /// Counts the backlog on a nudge (after letting nudges gather, as the pump does) or once a second until stopped,
    /// so the waits see events of any writer.
    func watchBacklog() async {
        while !Task.isCancelled {
            await refreshBacklog()
            await countWake.wait(upTo: Self.pollInterval)
            await gather(countHurry)
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
