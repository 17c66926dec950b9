import Foundation
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

private func detectedUID(_ state: FieldState) -> [UInt8]? {
    if case .tag(let tag) = state { return tag.uid }
    return nil
}

@Test func lineModePresentsPopulationInOrderUntilExhausted() throws {
    let field = TagField(options: try SimulationOptions("sim:ntag213?count=3&uid=04000000000001"))
    #expect(field.presence == .empty)
    for index in 0..<3 {
        let state = try field.poll()
        #expect(detectedUID(state) == (try hex("04 00 00 00 00 00 0\(index + 1)")))
        #expect(field.presence == .one)
        #expect(try field.poll() == state, "a tag not released stays in the field")
        try field.removeCurrent()
    }
    #expect(try field.poll() == .exhausted)
    #expect(field.isExhausted)
    #expect(field.arrivals == 3 && field.departures == 3)
}

@Test func multiFaultShowsTwoTagsOnFirstPollOnly() throws {
    let field = TagField(options: try SimulationOptions("sim:ntag215?count=1&faults=multi:1"))
    #expect(try field.poll() == .multipleTags(count: 2))
    #expect(detectedUID(try field.poll()) != nil)
}

@Test func wrongChipFaultBringsAnotherChip() throws {
    let field = TagField(options: try SimulationOptions("sim:ntag215?count=1&faults=wrongchip:1"))
    let tag = try #require(try field.arrive() as? NTAGEmulator)
    #expect(tag.chip != .ntag215)
}

@Test func tornTagLeavesAndNextArrives() throws {
    let field = TagField(options: try SimulationOptions("sim:ntag213?count=2&uid=04000000000001"))
    _ = try field.poll()
    let tag = try #require(field.current as? NTAGEmulator)
    tag.faults.removedAfterExchanges = 0
    #expect(tag.exchange([0x30, 0x00]) == .silence)
    // The torn tag comes back first (an operator re-presents it), with its memory and no fault.
    #expect(detectedUID(try field.poll()) == (try hex("04 00 00 00 00 00 01")))
    #expect(field.current?.faults.removedAfterExchanges == nil)
    try field.removeCurrent()
    #expect(detectedUID(try field.poll()) == (try hex("04 00 00 00 00 00 02")))
    try field.removeCurrent()
    #expect(try field.poll() == .exhausted)
}

@Test func refreshBringsNextTagWithoutActivating() throws {
    let field = TagField(options: try SimulationOptions("sim:ntag213?count=1"))
    #expect(try field.refresh() == .one)
    let tag = try #require(field.current as? NTAGEmulator)
    #expect(tag.state == .idle)
    #expect(tag.receiveRaw([0x52], lastByteBits: 7) == .data([0x44, 0x00]))
    tag.remove()
    #expect(try field.refresh() == .empty)
    #expect(field.departures == 1)
}

@Test func insertAndRemoveForControlSockets() throws {
    let field = TagField(options: try SimulationOptions("sim:ntag216?count=0"))
    #expect(try field.poll() == .empty)
    let uid = try hex("04 11 22 33 44 55 66")
    try field.insert(uid: uid)
    #expect(detectedUID(try field.poll()) == uid)
    try field.insert(uid: try hex("04 11 22 33 44 55 67"), chip: .ntag213)
    #expect(field.presence == .several(2))
    #expect(try field.poll() == .multipleTags(count: 2))
    try field.remove(uid: uid)
    #expect((field.current as? NTAGEmulator)?.chip == .ntag213)
    try field.remove()
    #expect(field.presence == .empty)
}

@Suite(.serialized) struct TagFieldStoreTests {
    @Test func storePersistsImagesAcrossFieldInstances() throws {
        let directory = try Fixtures.temporaryDirectory("tagfield-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = "sim:ntag215?count=2&uid=04000000000010&store=\(directory.path)"
        let first = TagField(options: try SimulationOptions(spec))
        _ = try first.poll()
        let tag = try #require(first.current as? NTAGEmulator)
        #expect(tag.write(5, [0xCA, 0xFE, 0xBA, 0xBE]) == .ack)
        let file = directory.appendingPathComponent("04000000000010.bin")
        let saved = try [UInt8](Data(contentsOf: file))
        #expect(saved.count == 135 * 4, "saved after the write, before removal")
        #expect(Array(saved[20..<24]) == [0xCA, 0xFE, 0xBA, 0xBE])
        try first.removeCurrent()

        let second = TagField(options: try SimulationOptions(spec))
        let again = try #require(try second.arrive() as? NTAGEmulator)
        #expect(again.uid == (try hex("04 00 00 00 00 00 10")))
        #expect(again.storedPage(5) == [0xCA, 0xFE, 0xBA, 0xBE])
        #expect(again.image == tag.image)
    }

    @Test func storeKeepsCounterAndAuthFailures() throws {
        let directory = try Fixtures.temporaryDirectory("tagfield-state")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = "sim:ntag213?uid=04000000000030&store=\(directory.path)"
        let first = TagField(options: try SimulationOptions(spec))
        _ = try first.poll()
        let tag = try #require(first.current as? NTAGEmulator)
        #expect(tag.write(0x2A, [0x17, 0x00, 0x00, 0x00]) == .ack)  // NFC_CNT_EN, AUTHLIM 7
        tag.fieldOff()
        _ = tag.activate()
        #expect(tag.readPages(4) != nil)
        #expect(tag.exchange([0x1B, 0, 0, 0, 0]) == .nak(0x00))
        try first.removeCurrent()
        let again = try #require(try TagField(options: try SimulationOptions(spec)).arrive() as? NTAGEmulator)
        #expect(
            again.hiddenState
                == NTAGEmulator.HiddenState(nfcCounter: 1, ev1Counters: [0, 0, 0], authenticationFailures: 1))
    }

    @Test func storedImageOfAnotherSizeLoadsAsItsChip() throws {
        let directory = try Fixtures.temporaryDirectory("tagfield-chip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let uid = try hex("04 00 00 00 00 00 20")
        let image = NTAGEmulator.factoryImage(chip: .ntag213, uid: uid)
        try Data(image).write(to: directory.appendingPathComponent("04000000000020.bin"))
        let field = TagField(options: try SimulationOptions("sim:ntag215?uid=04000000000020&store=\(directory.path)"))
        let tag = try #require(try field.arrive() as? NTAGEmulator)
        #expect(tag.chip == .ntag213)
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent("04000000000021.bin"))
        #expect(throws: TagStoreError.self) { try field.arrive() }
    }
}
