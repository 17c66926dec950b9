import NDEF
import NFCTags
import TagEmulator
import Testing

@Test func planParsesEntriesAndDashesPerTag() throws {
    let plan = try FaultPlan(parsing: "garbage:4@3,-,nak:5@7,silence@1,sw:6A82@4", kind: TagAnswerFault.parse)
    #expect(plan.entries.count == 5)
    #expect(plan.entry(forTagAt: 4) == .init(.answer(.status(0x6A82)), at: 4))
    #expect(plan.entry(forTagAt: 0) == .init(.answer(.garbage(4)), at: 3))
    #expect(plan.entry(forTagAt: 1) == nil)
    #expect(plan.entry(forTagAt: 2) == .init(.answer(.nak(5)), at: 7))
    #expect(plan.entry(forTagAt: 3) == .init(.silence, at: 1))
    #expect(plan.entry(forTagAt: 9) == nil, "tags past the list behave")
}

@Test(arguments: [
    "garbage:4", "nak:5@0", "nak:10@2", "frob@2", "garbage:0@1", "@3", "short:2@x", "sw:6A8@2", "sw:XYZW@1",
])
func malformedPlanEntryIsRefusedByName(entry: String) {
    #expect(throws: FaultPlanError.self) { try FaultPlan(parsing: "-,\(entry)", kind: TagAnswerFault.parse) }
}

@Test func readerKindsParseForEachFrontEnd() throws {
    let pn532 = try FaultPlan(parsing: "dcs@2,-,vanish@5", kind: PN532Misbehaviour.parse)
    #expect(pn532.entries == [.init(.dcs, at: 2), nil, .init(.vanish, at: 5)])
    let vpcd = try FaultPlan(parsing: "sw:6A82@1,drop@4", kind: VPCDMisbehaviour.parse)
    #expect(vpcd.entries == [.init(.statusWord(0x6A, 0x82), at: 1), .init(.drop, at: 4)])
    #expect(throws: FaultPlanError.self) { try FaultPlan(parsing: "sw:6A@1", kind: VPCDMisbehaviour.parse) }
}

@Test func scheduleFiresEachEntryOnceAtItsExchangeByUID() throws {
    let plan = try FaultPlan(parsing: "-,dcs@2", kind: PN532Misbehaviour.parse)
    let uids: [[UInt8]] = [[0x04, 1, 0, 0, 0, 0, 0], [0x04, 2, 0, 0, 0, 0, 0]]
    let schedule = FaultSchedule(plan, uid: { uids[$0] })
    #expect(schedule.tick(uid: uids[0]) == nil)
    #expect(schedule.tick(uid: uids[1]) == nil)
    #expect(schedule.tick(uid: uids[1]) == .dcs)
    #expect(schedule.tick(uid: uids[1]) == nil, "once only")
    #expect(schedule.fired.count == 1)
}

@Test func simSpecPlanGivesTheTagItsAnswerFaults() throws {
    let options = try SimulationOptions("sim:ntag213?plan=-,nak:4@2,silence@3")
    #expect(options.faults(forTagAt: 0).isEmpty)
    #expect(options.faults(forTagAt: 1).answerFaults == [2: .nak(4)])
    #expect(options.faults(forTagAt: 2).noAnswerExchanges == [3])
    #expect(throws: ReaderSpecError.self) { try SimulationOptions("sim:ntag213?plan=nak:4") }
}

@Test func answerFaultsFireAtTheirExchange() throws {
    var faults = TagFaults()
    faults.answerFaults = [1: .nak(5), 2: .garbage(3), 3: .short(4), 4: .long(2)]
    let tag = try NTAGEmulator(chip: .ntag213, uid: [0x04, 9, 9, 9, 9, 9, 9], faults: faults)
    #expect(tag.activate() != nil)
    #expect(tag.exchange([0xA2, 0x04, 1, 2, 3, 4]) == .nak(5))
    #expect(tag.storedPage(4) != [1, 2, 3, 4], "a NAKed WRITE is not carried out")
    #expect(tag.activate() != nil, "NAK dropped the tag to IDLE; activate again")
    #expect(tag.exchange([0xA2, 0x04, 1, 2, 3, 4]) == .data([0x5A, 0xA3, 0xEC]))
    #expect(tag.storedPage(4) == [1, 2, 3, 4], "garbage answer, but the WRITE was carried out")
    guard case .data(let short) = tag.exchange([0x30, 0x04]) else { throw FaultPlanError("READ gave no data") }
    #expect(short.count == 12)
    #expect(tag.exchange([0xA2, 0x05, 5, 6, 7, 8]) == .data([0x0A, 0xEE, 0xEE]))
    #expect(tag.exchange([0x30, 0x04]).isData, "exchange 5 behaves")
}

extension TagAnswer {
    fileprivate var isData: Bool {
        if case .data = self { return true }
        return false
    }
}
