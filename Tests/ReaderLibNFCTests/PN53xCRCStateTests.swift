import Testing

@testable import ReaderLibNFC

/// The bookkeeping behind the CRC-bit frames (`PN53xCRCState`), without a reader: what it asks to
/// read and write, and what it learns.
@Suite struct PN53xCRCStateTests {
    private typealias Registers = PN53xCRCState.Registers
    private let crcOn = Registers(transmitCRC: true, rxMode: 0x80)
    private let rxOff = Registers(transmitCRC: true, rxMode: 0x00)

    /// The state after the first tag command of a session: RX CRC switched off.
    private func afterFirstCommand() -> PN53xCRCState {
        var state = PN53xCRCState.afterInitiatorInit
        if let value = state.rxModeToWrite { state.wroteRxMode(value) }
        return state
    }

    @Test func afterInitTheFirstCommandWritesRxModeAndNothingElse() {
        let state = PN53xCRCState.afterInitiatorInit
        #expect(!state.needsRead)
        #expect(state.rxModeToWrite == 0x00)
        #expect(!state.hostAppendsCRC, "TX CRC is on: the chip appends CRC_A")
        #expect(afterFirstCommand().registers == rxOff)
        #expect(afterFirstCommand().rxModeToWrite == nil)
    }

    @Test func aSelectWhileCRCIsOnBothWaysNeedsNoRead() {
        var state = PN53xCRCState.afterInitiatorInit
        state.selectRan()
        #expect(!state.needsRead && state.selectEffect == nil)
        #expect(state.rxModeToWrite == 0x00)
    }

    @Test func aSelectThatSwitchesCRCOnIsLearnedOnceThenCostsOneWrite() {
        var state = afterFirstCommand()
        state.selectRan()
        #expect(state.needsRead)
        state.read(crcOn)
        #expect(state.selectEffect == .sets(crcOn))
        #expect(state.rxModeToWrite == 0x00)
        state.wroteRxMode(0x00)
        for _ in 0..<3 {
            state.selectRan()
            #expect(!state.needsRead)
            #expect(state.rxModeToWrite == 0x00)
            state.wroteRxMode(0x00)
        }
    }

    @Test func aSelectThatKeepsTheBitsIsLearnedOnceThenCostsNothing() {
        var state = afterFirstCommand()
        state.selectRan()
        state.read(rxOff)
        #expect(state.selectEffect == .keepsHostBits)
        for _ in 0..<3 {
            state.selectRan()
            #expect(!state.needsRead && state.rxModeToWrite == nil)
        }
    }

    /// Other RxMode bits a select leaves are kept when CRC checking is switched off.
    @Test func theWrittenRxModeKeepsTheBitsTheSelectLeft() {
        var state = afterFirstCommand()
        state.selectRan()
        state.read(Registers(transmitCRC: true, rxMode: 0x84))
        #expect(state.rxModeToWrite == 0x04)
    }

    @Test func aChipThatSendsWithoutCRCHasTheHostAppendIt() {
        var state = afterFirstCommand()
        state.selectRan()
        state.read(Registers(transmitCRC: false, rxMode: 0x00))
        #expect(state.hostAppendsCRC)
        #expect(state.selectEffect == .sets(Registers(transmitCRC: false, rxMode: 0x00)))
    }

    /// After a failure nothing is trusted: the next command reads the registers (without learning,
    /// no select ran since), and the next select is learned again.
    @Test func forgettingReadsBeforeTheNextCommandAndLearnsAgain() {
        var state = afterFirstCommand()
        state.selectRan()
        state.read(rxOff)
        state.forget()
        #expect(state.needsRead && state.selectEffect == nil)
        #expect(state.hostAppendsCRC, "unknown TX CRC: the host would append CRC_A, but a read comes first")
        state.selectRan()
        #expect(state.needsRead)
        state.read(crcOn)
        #expect(state.selectEffect == nil, "no select between what was known and this read")
        state.wroteRxMode(0x00)
        state.selectRan()
        state.read(crcOn)
        #expect(state.selectEffect == .sets(crcOn))
    }
}
