import Ledger
import NFCTags

/// Keyed personalisation, in place of write, lock and protect: the family's plan (`KeyedPlan`, from its
/// `KeyedScheme`) runs on the tag, every key change journaled before it leaves (docs/authentication.md).
///
/// The step knows no chip: it times the plan's phases, records what reached the tag, and turns the plan's
/// classified failures (`KeyedFailure`) into the pipeline's classes. A journal the ledger could not write stops
/// the line (`gateFailure`), as a claim does.
///
/// Failure classes: `wrongChip`, `protectFailed`, `verifyMismatch`, `lockFailed` (as the plan classifies them),
/// `transport` (a key change the ledger could not journal), and the transport classes.
extension PipelineRun {
    func personaliseStep(_ keyedPlan: any KeyedPlan) throws {
        let tag = try family()
        do {
            sunCounter = try keyedPlan.run(on: tag, message: plan.message, uid: plan.uid, steps: KeyedStepsOfRun(self))
        } catch let failure as KeyedFailure {
            throw CycleFailure(failure.kind.failureClass, phase: failure.phase.pipelinePhase, failure.description)
        } catch let error as LedgerError {
            gateFailure = error
            throw CycleFailure(.transport, phase: .lock, "the ledger could not journal a key change: \(error.message)")
        }
        locked = keyedPlan.locks
    }
}

/// A pipeline run as the keyed plan sees it: its phases' timing and what reached the tag.
final class KeyedStepsOfRun: KeyedSteps {
    let run: PipelineRun

    init(_ run: PipelineRun) { self.run = run }

    func timed<R>(_ phase: KeyedPhase, _ body: () throws -> R) throws -> R {
        try run.timed(phase.pipelinePhase, body)
    }

    func keysMayChange() { run.keysChanged = true }

    func wrote() { run.wroteSomething = true }

    func foundWritten() { run.alreadyWritten = true }
}

extension KeyedPhase {
    /// The pipeline's phase of the same name.
    var pipelinePhase: Phase {
        switch self {
        case .identify: .identify
        case .write: .write
        case .verify: .verify
        case .lock: .lock
        }
    }
}

extension KeyedFailure.Kind {
    /// The pipeline's failure class of the same name.
    var failureClass: FailureClass {
        switch self {
        case .wrongChip: .wrongChip
        case .protectFailed: .protectFailed
        case .verifyMismatch: .verifyMismatch
        case .lockFailed: .lockFailed
        }
    }
}
