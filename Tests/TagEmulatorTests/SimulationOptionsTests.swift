import NDEF
import NFCTags
import TagEmulator
import Testing

@Test func defaultsAreUnlimitedNTAG215Instant() throws {
    let options = try SimulationOptions("sim")
    #expect(options.chip == .ntag215)
    #expect(options.count == nil)
    #expect(options.timing == .instant)
    #expect(options.firstUID.count == 7 && options.firstUID[0] == 0x04)
    #expect(options.storeDirectory == nil)
    #expect(options.configuration == EmulatorConfiguration())
    #expect(try SimulationOptions("sim:ntag215").firstUID == options.firstUID)
    #expect(try SimulationOptions("sim:ntag215?seed=8").firstUID != options.firstUID)
}

@Test func everyOptionParses() throws {
    let options = try SimulationOptions(
        "sim:NTAG213?count=50&uid=04A00000000000&seed=7&timing=datasheet&prog=3.5"
            + "&faults=tear:0.02,nak5:0.01,noanswer:0.03,readonly:0.04,unformatted:0.05,wrongchip:0.06,multi:0.005"
            + "&store=/tmp/x&removal=250&config=immediate&locks=next&wrongpwd=silence&unknown=silence&rfui=store")
    #expect(options.chip == .ntag213)
    #expect(options.count == 50)
    #expect(options.firstUID == (try hex("04 A0 00 00 00 00 00")))
    #expect(options.seed == 7)
    #expect(options.timing == .datasheet)
    #expect(options.configuration.programmingMicroseconds == 3_500)
    var rates = SimulationOptions.FaultRates()
    rates.tear = 0.02
    rates.nak5 = 0.01
    rates.noAnswer = 0.03
    rates.readOnly = 0.04
    rates.unformatted = 0.05
    rates.wrongChip = 0.06
    rates.multi = 0.005
    #expect(options.faultRates == rates)
    #expect(options.storeDirectory == "/tmp/x")
    #expect(options.removalMilliseconds == 250)
    #expect(options.configuration.configActivation == .immediate)
    #expect(options.configuration.lockActivation == .nextActivation)
    #expect(options.configuration.wrongPasswordAnswer == .silence)
    #expect(options.configuration.unknownCommandAnswer == .silence)
    #expect(options.configuration.storeRFUILockBits)
}

@Test(arguments: [
    ("nfc:pn532_uart:/dev/ttyS0", "scheme"),
    ("sim:ntag214", "unknown chip"),
    ("sim:ntag215?count=-1", "count"),
    ("sim:ntag215?count=many", "count"),
    ("sim:ntag215?uid=04A0000000000", "14 hex digits"),
    ("sim:ntag215?uid=04A00000000000FF", "14 hex digits"),
    ("sim:ntag215?uid=04A0000000000G", "14 hex digits"),
    ("sim:ntag215?seed=-3", "seed"),
    ("sim:ntag215?timing=fast", "timing"),
    ("sim:ntag215?prog=abc", "prog"),
    ("sim:ntag215?faults=tear", "kind:probability"),
    ("sim:ntag215?faults=tear:1.5", "kind:probability"),
    ("sim:ntag215?faults=melt:0.1", "unknown fault"),
    ("sim:ntag215?store", "store needs a directory"),
    ("sim:ntag215?removal=soon", "removal"),
    ("sim:ntag215?config=later", "config"),
    ("sim:ntag215?colour=red", "unknown option 'colour'"),
])
func badOptionsThrowWithReason(spec: String, reasonPart: String) {
    expectRefused(spec, naming: reasonPart)
}

/// `spec` is refused with an error that names it and whose reason contains `reasonPart` (every family's spec tests).
func expectRefused(_ spec: String, naming reasonPart: String) {
    do {
        _ = try SimulationOptions(spec)
        Issue.record("\(spec) was accepted")
    } catch {
        #expect(error.spec == spec)
        #expect(error.reason.contains(reasonPart), "\(error.reason)")
    }
}

@Test func uidsCountUpWithCarry() throws {
    let options = try SimulationOptions("sim:ntag213?uid=040000000000FF")
    #expect(options.uid(at: 0) == (try hex("04 00 00 00 00 00 FF")))
    #expect(options.uid(at: 1) == (try hex("04 00 00 00 00 01 00")))
    #expect(options.uid(at: 258) == (try hex("04 00 00 00 00 02 01")))
}

@Test func faultsRepeatForSeedAndFollowRates() throws {
    let all = try SimulationOptions(
        "sim:ntag213?seed=5&faults=tear:1,nak5:1,noanswer:1,readonly:1,unformatted:1,wrongchip:1,multi:1")
    let faults = all.faults(forTagAt: 3)
    #expect(faults == all.faults(forTagAt: 3))
    #expect(faults.removedAfterExchanges.map { (0..<16).contains($0) } == true)
    #expect(faults.eepromErrorPages.count == 1)
    #expect(faults.eepromErrorPages.allSatisfy { (4..<16).contains($0) })
    #expect(faults.noAnswerExchanges.count == 1)
    #expect(faults.preLocked && faults.unformatted && faults.secondTag)
    #expect(faults.wrongChip != nil && faults.wrongChip != .ntag213)
    let none = try SimulationOptions("sim:ntag213?seed=5")
    #expect((0..<50).allSatisfy { none.faults(forTagAt: $0).isEmpty })
    let some = try SimulationOptions("sim:ntag213?seed=5&faults=readonly:0.5")
    let locked = (0..<200).filter { some.faults(forTagAt: $0).preLocked }.count
    #expect(locked > 60 && locked < 140)
}
