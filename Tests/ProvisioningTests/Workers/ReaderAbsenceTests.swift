import Testing

@testable import Provisioning

/// The run gives up on its gone readers only once every reader still working has been gone for the timeout.
@Suite struct ReaderAbsenceTests {
    @Test func withoutATimeoutTheRunWaitsForEver() {
        let absence = ReaderAbsence()
        absence.started("a")
        absence.gone("a")
        #expect(absence.deadline() == nil)
    }

    @Test func theDeadlineCountsFromTheLastReaderToGoAndOnlyOnceEveryWorkingReaderIsGone() {
        let absence = ReaderAbsence(timeout: .seconds(30))
        absence.started("a")
        absence.started("b")
        let start = ContinuousClock.now
        absence.gone("a", at: start)
        #expect(absence.deadline() == nil, "b still works")
        absence.gone("b", at: start + .seconds(5))
        #expect(absence.deadline() == start + .seconds(35))
        // Gone again while gone: the first loss counts.
        absence.gone("b", at: start + .seconds(9))
        #expect(absence.deadline() == start + .seconds(35))
        absence.back("b")
        #expect(absence.deadline() == nil, "b is back")
        // A worker that ended (job complete, paused on failures) no longer keeps the run waiting.
        absence.ended("b")
        #expect(absence.deadline() == start + .seconds(30))
    }
}
