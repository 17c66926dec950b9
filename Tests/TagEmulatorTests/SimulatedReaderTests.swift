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

@Test func pollTransceiveReleaseWalksThePopulation() async throws {
    let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag213?count=2&uid=04000000000001"))
    #expect(reader.name == "sim:ntag213")
    #expect(detectedUID(try await reader.poll(timeoutMilliseconds: 100)) == (try hex("04 00 00 00 00 00 01")))
    let version = try await reader.withTransceiver { try $0.transceive([0x60], timeoutMilliseconds: 5) }
    #expect(version == ChipModel.ntag213.version)
    let ack = try await reader.withTransceiver { try $0.transceive([0xA2, 0x06, 1, 2, 3, 4], timeoutMilliseconds: 10) }
    #expect(ack == [0x0A])
    #expect(try await reader.release(waitingForRemovalMilliseconds: 100))
    await #expect(throws: TransportError.tagLost) {
        try await reader.withTransceiver { try $0.transceive([0x30, 0x00], timeoutMilliseconds: 5) }
    }
    #expect(detectedUID(try await reader.poll(timeoutMilliseconds: 100)) == (try hex("04 00 00 00 00 00 02")))
    #expect(try await reader.release(waitingForRemovalMilliseconds: 100))
    #expect(try await reader.poll(timeoutMilliseconds: 10) == .exhausted)
    let airtime = await reader.modelledAirtimeMicroseconds
    #expect(airtime > 2 * RFTiming().activation + 4_100)
}

@Test func tearMakesTransceiverReportTagLost() async throws {
    let reader = SimulatedReader(options: try SimulationOptions("sim:ntag215?count=1&faults=tear:1&seed=3"))
    _ = try await reader.poll(timeoutMilliseconds: 10)
    let outcome = try await reader.withTransceiver { transceiver -> TransportError? in
        for _ in 0..<20 {
            do throws(TransportError) {
                _ = try transceiver.transceive([0x30, 0x00], timeoutMilliseconds: 5)
            } catch {
                return error
            }
        }
        return nil
    }
    #expect(outcome == .tagLost)
    // The torn tag is put back (same UID), then the population is used up.
    let again = try await reader.poll(timeoutMilliseconds: 10)
    #expect(detectedUID(again) != nil)
    _ = try await reader.release(waitingForRemovalMilliseconds: 10)
    #expect(try await reader.poll(timeoutMilliseconds: 10) == .exhausted)
}

@Test func removalDelayLongerThanTimeoutKeepsTagUntilNextRelease() async throws {
    let reader = SimulatedReader(options: try SimulationOptions("sim:ntag213?count=2&removal=300"))
    let first = detectedUID(try await reader.poll(timeoutMilliseconds: 10))
    #expect(try await reader.release(waitingForRemovalMilliseconds: 200) == false)
    #expect(detectedUID(try await reader.poll(timeoutMilliseconds: 10)) == first)
    #expect(try await reader.release(waitingForRemovalMilliseconds: 200))
    #expect(detectedUID(try await reader.poll(timeoutMilliseconds: 10)) != first)
}

@Test func datasheetTimingReallyWaits() async throws {
    let reader = SimulatedReader(options: try SimulationOptions("sim:ntag213?timing=datasheet&prog=20"))
    _ = try await reader.poll(timeoutMilliseconds: 10)
    let start = Date()
    _ = try await reader.withTransceiver { transceiver in
        try transceiver.transceive([0xA2, 0x06, 1, 2, 3, 4], timeoutMilliseconds: 30)
    }
    #expect(Date().timeIntervalSince(start) >= 0.020)
}

@Test func controlOperationsThroughWithField() async throws {
    let reader = SimulatedReader(options: try SimulationOptions("sim:ntag215?count=0"))
    #expect(try await reader.poll(timeoutMilliseconds: 1) == .empty)
    let uid = try hex("04 AA BB CC DD EE FF")
    try await reader.withField { field in _ = try field.insert(uid: uid) }
    #expect(detectedUID(try await reader.poll(timeoutMilliseconds: 1)) == uid)
}

/// Issue 40 item 4: with `store=DIR` the simulated reader saves a tag's image once per host session, not
/// once per programmed page (a file write per WRITE was most of the sample job's write phase), and the image is
/// on disk when the session returns, before a line could commit its ledger row.
@Test func storeWritesEachTagsImageOncePerSessionNotOncePerPage() async throws {
    let directory = try Fixtures.temporaryDirectory("sim-store-writes")
    defer { try? FileManager.default.removeItem(at: directory) }
    let tags = 3
    let reader = try SimulatedReader(
        spec: ReaderSpec("sim:ntag215?count=\(tags)&uid=04000000000001&store=\(directory.path)"))
    for index in 1...tags {
        let uid = try #require(detectedUID(try await reader.poll(timeoutMilliseconds: 10)))
        // A pre-check session that only reads (the pipeline's first call when a write gate is closed).
        _ = try await reader.withTransceiver { try $0.transceive([0x30, 0x04], timeoutMilliseconds: 5) }
        let file = directory.appendingPathComponent("\(Hex.compact(uid)).bin")
        let page: [UInt8] = [0xCA, 0xFE, 0x00, UInt8(index)]
        let acks = try await reader.withTransceiver { transceiver in
            try (UInt8(4)..<16).map { try transceiver.transceive([0xA2, $0] + page, timeoutMilliseconds: 10) }
        }
        #expect(acks == Array(repeating: [0x0A], count: 12))
        let saved = try [UInt8](Data(contentsOf: file))
        #expect(Array(saved[60..<64]) == page, "page 15 is on disk when the session returns")
        #expect(await reader.withField { $0.imagesSaved } == index, "one image write for tag \(index)")
        #expect(try await reader.release(waitingForRemovalMilliseconds: 10))
    }
    #expect(await reader.withField { $0.imagesSaved } == tags, "removal writes nothing the session saved")
}

/// A torn tag put back on the reader is saved at the end of its next session too (the line does not wait for the
/// last tag's removal, so a save only on removal would lose what the retry wrote).
@Test func aTornTagPresentedAgainIsSavedWhenItsNextSessionReturns() async throws {
    let directory = try Fixtures.temporaryDirectory("sim-store-torn")
    defer { try? FileManager.default.removeItem(at: directory) }
    let reader = try SimulatedReader(
        spec: ReaderSpec("sim:ntag215?count=1&uid=04000000000001&faults=tear:1&seed=3&store=\(directory.path)"))
    let page: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE]
    _ = try await reader.poll(timeoutMilliseconds: 10)
    await #expect(throws: TransportError.tagLost) {
        try await reader.withTransceiver { transceiver in
            for address in UInt8(4)..<40 {
                _ = try transceiver.transceive([0xA2, address] + page, timeoutMilliseconds: 10)
            }
        }
    }
    let uid = try #require(detectedUID(try await reader.poll(timeoutMilliseconds: 10)), "the torn tag is back")
    let acks = try await reader.withTransceiver { transceiver in
        try (UInt8(4)..<40).map { try transceiver.transceive([0xA2, $0] + page, timeoutMilliseconds: 10) }
    }
    #expect(acks == Array(repeating: [0x0A], count: 36))
    let saved = try [UInt8](Data(contentsOf: directory.appendingPathComponent("\(Hex.compact(uid)).bin")))
    #expect(Array(saved[156..<160]) == page, "page 39 is on disk before any removal")
}
