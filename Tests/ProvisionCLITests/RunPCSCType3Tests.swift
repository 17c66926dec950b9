import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

@testable import ProvisionCLI

/// `provision run` of a Type 3 (FeliCa Lite-S) job with lock through a real pcscd, the vpcd driver and the
/// virtual card in the `acr122u` style, as a line engineer runs it: `PCSCReader` tells a FeliCa card by its ATR,
/// polls `12FC` and carries the family's frames by PN532 InDataExchange inside the ACR122U's direct transmit.
@Suite(.serialized, .timeLimit(.minutes(5))) struct RunPCSCType3Tests {
    /// Exchanges per done attempt, by row.
    private func exchanges(_ folder: JobFolder) throws -> [Int] {
        try folder.query("SELECT exchanges FROM attempts WHERE outcome = 'done' ORDER BY row").map { Int($0[0]) ?? -1 }
    }

    @Test func anACR122UJobWithLockRunsThroughPCSCAndMatchesTheSimulator() async throws {
        let rows = 3
        let folder = try JobFolder(job: "t3", rows: rows, tag: "felica-lite-s", lock: true)
        let spec = "sim:felica-lite-s?count=\(rows)&uid=012EA30000000001&store=\(folder.store.path)"
        let reader = "pcsc:#0?style=acr122u"
        try await withStation(style: .acr122u) { station in
            let (run, stats) = try await station.withCard(spec) { card in
                let (outcome, seconds) = try await provisionTimed(
                    folder, ["run", "job.json", "--quiet", "--idle", "15", "--reader", reader])
                let stats = await card.command("stats")
                print("pcsc type3 run: \(rows) felica-lite-s in \(String(format: "%.2f", seconds)) s; \(stats)")
                return (outcome, stats)
            }
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let records = try folder.query("SELECT row, uid, state, chip, family, locked FROM records ORDER BY row")
            #expect(
                records.map { Array($0[2...]) }
                    == Array(repeating: ["done", "felica-lite-s", "type3", "1"], count: rows))
            for record in records {
                #expect(record[1].count == 16 && record[1].hasPrefix("012EA3"), "the 12FC Polling's IDm: \(record[1])")
                let blocks = try Type3RunTests.blocks(folder, idm: record[1])
                let message = try NDEFMessage(bytes: try Type3RunTests.message(blocks))
                let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
                #expect(uri.hasPrefix("https://example.com/p/SKU-\(record[0])/"), "\(uri)")
                #expect(uri.hasSuffix("?u=\(record[1])"), "{{uid}} is the IDm: \(uri)")
                #expect(FeliCaMemoryConfiguration(blocks[FeliCaLiteS.mc]!).isPermanentlyReadOnly)
                #expect(blocks[0]?[10] == 0x00, "RWFlag 00 after the lock")
            }
            let values = counters(stats)
            #expect(values["read"] == 0 && values["update"] == 0 && (values["raw"] ?? 0) > 0, "frames only: \(stats)")
            #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome != 'done'") == [["0"]])
            let throughPCSC = try exchanges(folder)

            let simulated = try JobFolder(job: "s", rows: rows, tag: "felica-lite-s", lock: true)
            let sim = try await provisionTimed(
                simulated,
                [
                    "run", "job.json", "--reader",
                    simulated.sim("felica-lite-s", uid: "012EA30000000001", options: "count=3"),
                ]
            ).0
            #expect(sim.status == 0, "\(sim.stderr)")
            #expect(throughPCSC == (try exchanges(simulated)), "the same FeliCa frames per tag")
            let simulatedImages = try (1...rows).map {
                try Type3RunTests.blocks(simulated, idm: "012EA3000000000\($0)")
            }
            let pcscImages = try (1...rows).map { try Type3RunTests.blocks(folder, idm: "012EA3000000000\($0)") }
            #expect(pcscImages == simulatedImages, "the same images, block by block")
        }
    }

    /// A FeliCa Standard card (its NDEF system the only one, Nbw 4, no lock) through the ACR1252U's bare frames.
    @Test func aFeliCaStandardJobRunsThroughTheACR1252UsBareFrames() async throws {
        let rows = 2
        let folder = try JobFolder(job: "t3s", rows: rows, tag: "felica-standard", lock: false)
        let spec = "sim:felica-standard?count=\(rows)&uid=012EA50000000001&store=\(folder.store.path)"
        try await withStation(style: .acr1252u) { station in
            let run = try await station.withCard(spec) { _ in
                try await provisionTimed(
                    folder, ["run", "job.json", "--quiet", "--idle", "15", "--reader", "pcsc:#0?style=acr1252u"]
                ).0
            }
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let records = try folder.query("SELECT row, uid, state, chip, family FROM records ORDER BY row")
            #expect(
                records.map { Array($0[2...]) } == Array(repeating: ["done", "felica-standard", "type3"], count: rows))
            for record in records {
                // The Standard card's image is its 14 blocks in order.
                let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(record[1]).bin")))
                let blocks = Dictionary(
                    uniqueKeysWithValues: (0..<14).map { ($0, Array(image[16 * $0..<16 * $0 + 16])) })
                let message = try NDEFMessage(bytes: try Type3RunTests.message(blocks))
                let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
                #expect(uri.hasPrefix("https://example.com/p/SKU-\(record[0])/"), "\(uri)")
                #expect(uri.hasSuffix("?u=\(record[1])"), "{{uid}} is the 12FC Polling's IDm: \(uri)")
            }
            #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome != 'done'") == [["0"]])
        }
    }

    @Test func readersSaysWhichPCSCStylesReachType3() async throws {
        let daemon = try await PCSCDaemon.start(slots: 1) { try PCSCReader.listReaders().count }
        let text = try await onThread { try ProvisionProcess.run(["readers"]) }
        await daemon.stop()
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Type 3 (FeliCa): no FeliCa path on this style"), "\(text.stdout)")
        #expect(ReaderFactory.type3Reach(.acr122u).hasPrefix("yes, PN532 InDataExchange"))
        #expect(ReaderFactory.type3Reach(.acr1252u).hasPrefix("yes, the bare frame"))
    }
}
