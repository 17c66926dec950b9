import Provisioning
import Testing

private let first: [UInt8] = [0x04, 0, 0, 0, 0, 0, 1]
private let second: [UInt8] = [0x04, 0, 0, 0, 0, 0, 2]
private let third: [UInt8] = [0x04, 0, 0, 0, 0, 0, 3]

@Suite struct AuditSessionTests {
    @Test func aUIDIsAuditedOnceAndRepeatsAreCounted() async {
        let session = AuditSession(limit: nil)
        #expect(await session.admit(first) == .audit)
        await session.record(TagVerdict(uid: first, row: 1, status: .pass, detail: ""))
        #expect(await session.admit(first) == .repeated(.pass))
        #expect(await session.admit(first) == .repeated(.pass))
        #expect(await session.repeats == 2)
        #expect(await session.verdicts.count == 1)
    }

    @Test func theLimitStopsNewUIDsButStillRecognisesRepeats() async {
        let session = AuditSession(limit: 2)
        #expect(await session.admit(first) == .audit)
        #expect(await session.admit(second) == .audit)
        #expect(await session.isFull)
        #expect(await session.admit(third) == .full)
        #expect(await session.admit(second) == .repeated(nil), "still in flight: no verdict yet")
    }

    @Test func anAbandonedUIDMayBePresentedAgain() async {
        let session = AuditSession(limit: 1)
        #expect(await session.admit(first) == .audit)
        await session.abandon(first)
        #expect(await !session.isFull)
        #expect(await session.admit(first) == .audit)
        #expect(await session.repeats == 0)
    }

    @Test func aTagNeverReadAfterItsReadFailedIsUnreadableAndFailsTheAudit() async {
        let session = AuditSession(limit: nil)
        #expect(await session.admit(first) == .audit)
        await session.abandon(first, because: "no answer")
        #expect(await session.admit(second) == .audit)
        await session.abandon(second, because: "no answer")
        // The second tag is presented again and read: only the first stays unread.
        #expect(await session.admit(second) == .audit)
        await session.record(TagVerdict(uid: second, row: 2, status: .pass, detail: ""))
        await session.recordUnread()
        let verdicts = await session.verdicts.map(\.verdict)
        #expect(verdicts.map(\.status) == [.pass, .unreadable])
        #expect(verdicts.last?.uid == first && verdicts.last?.detail.contains("no answer") == true)
        #expect(TagVerdict.Status.unreadable.isFailure)
        // Told once: a second call adds nothing.
        await session.recordUnread()
        #expect(await session.verdicts.count == 2)
    }
}
