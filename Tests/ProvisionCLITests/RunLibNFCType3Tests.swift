import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// Type 3 (FeliCa Lite-S) jobs through stock libnfc (`pn532_uart`) to a `provision emulate pn532` child, as a line
/// engineer runs them: `run` with lock, `audit`, `inspect`, `write` with `"format": true`, and nfcpy (its own
/// PN532 driver and Type 3 code) reading what we wrote.
@Suite(.serialized) struct RunLibNFCType3Tests {
    /// Exchanges per done attempt, by row.
    private func exchanges(_ folder: JobFolder) throws -> [Int] {
        try folder.query("SELECT exchanges FROM attempts WHERE outcome = 'done' ORDER BY row").map { Int($0[0]) ?? -1 }
    }

    private func provision(_ arguments: [String], in folder: JobFolder) async throws -> ProvisionProcess.Outcome {
        try await onThread { try ProvisionProcess.run(arguments, directory: folder.url) }
    }

    @Test func aLockedJobThroughLibnfcMatchesTheSimulatorAndPassesAnAuditThroughLibnfc() async throws {
        let rows = 3
        let folder = try JobFolder(rows: rows, tag: "felica-lite-s", lock: true)
        let tags = "sim:felica-lite-s?count=\(rows)&uid=012EA30000000001&store=\(folder.store.path)"
        let (emulator, slave) = try await ChildProvision.pn532(["--tags", tags, "--line"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let reader = "nfc:pn532_uart:" + slave
        let run = try await provision(["run", "job.json", "--reader", reader, "--quiet", "--idle", "5"], in: folder)
        #expect(try await emulator.stop() == 0)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let records = try folder.query("SELECT row, uid, state, chip, family, locked FROM records ORDER BY row")
        #expect(
            records.map { Array($0[2...]) } == Array(repeating: ["done", "felica-lite-s", "type3", "1"], count: rows))
        for record in records {
            #expect(record[1].count == 16 && record[1].hasPrefix("012EA3"), "the 12FC Polling's IDm: \(record[1])")
            let blocks = try Type3RunTests.blocks(folder, idm: record[1])
            let message = try NDEFMessage(bytes: try Type3RunTests.message(blocks))
            let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
            #expect(uri.hasSuffix("?u=\(record[1])"), "\(uri)")
            #expect(FeliCaMemoryConfiguration(blocks[FeliCaLiteS.mc]!).isPermanentlyReadOnly)
        }
        let throughLibnfc = try exchanges(folder)

        let simulated = try JobFolder(job: "s", rows: rows, tag: "felica-lite-s", lock: true)
        let sim = try await provision(
            [
                "run", "job.json", "--reader",
                simulated.sim("felica-lite-s", uid: "012EA30000000001", options: "count=3"),
            ],
            in: simulated)
        #expect(sim.status == 0, "\(sim.stderr)")
        #expect(throughLibnfc == (try exchanges(simulated)), "the same FeliCa frames per tag")

        let (again, againSlave) = try await ChildProvision.pn532(["--tags", tags, "--line"])
        try #require(againSlave.hasPrefix("/tmp/pn532."), "\(again.stderr)")
        let audit = try await provision(
            ["audit", "job.json", "--reader", "nfc:pn532_uart:" + againSlave, "--json", "--idle", "5"], in: folder)
        #expect(try await again.stop() == 0)
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == true && object["tags"] as? Int == rows, "\(audit.stdout)")
    }

    @Test func formatWriteAndInspectThroughLibnfcAndNfcpyReadsTheMessage() async throws {
        let folder = try JobFolder(rows: 1, tag: "felica-lite-s", lock: false, extra: #", "format": true"#)
        let tags = "sim:felica-lite-s?uid=012EA40000000001&faults=unformatted:1&store=\(folder.store.path)"
        let (emulator, slave) = try await ChildProvision.pn532(["--tags", tags, "--lenient-power"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let reader = "nfc:pn532_uart:" + slave
        let blank = try await provision(["write", "--reader", reader, "--uri", "https://e.x/blank"], in: folder)
        #expect(blank.status != 0 && blank.stderr.contains("notNDEF"), "no job: no format. \(blank.stderr)")
        let run = try await provision(["run", "job.json", "--reader", reader, "--quiet", "--idle", "5"], in: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try folder.query("SELECT state FROM records") == [["done"]])

        let uri = "https://example.com/t3/libnfc-wrote"
        let write = try await provision(["write", "--reader", reader, "--uri", uri], in: folder)
        #expect(write.status == 0, "\(write.stdout)\(write.stderr)")
        let inspect = try await provision(["inspect", "--reader", reader], in: folder)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        for line in [
            "UID         012EA40000000001 (FeliCa IDm)", "IDm         01 2E A4 00 00 00 00 01",
            "PMm         00 F1 00 00 00 01 43 00, IC type F1 (FeliCa Lite-S)", "Systems     12 FC, 88 B4",
            "Attributes  Ver 10, Nbr 4, Nbw 1, NmaxB 13, WriteF 00, RWFlag 01, Ln 32", uri,
        ] {
            #expect(inspect.stdout.contains(line), "\(line) in \(inspect.stdout)")
        }
        let read = try await NfcpyReader.readTag(at: slave)
        #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
        #expect(read.json?["type"] as? String == "FelicaLiteS", "\(read.stdout)")
        #expect(read.uris == [uri], "\(read.stdout)")
        #expect(try await emulator.stop() == 0)
    }
}

/// A FeliCa Standard card with the NDEF system (`sim:felica-standard`): the non-Lite path, Nbw 4 writes.
@Suite(.serialized) struct RunLibNFCType3StandardTests {
    @Test func aStandardCardJobRunsThroughLibnfcLikeOnTheSimulatorAndCannotBeLocked() async throws {
        let rows = 2
        let folder = try JobFolder(rows: rows, tag: "felica-standard", lock: false)
        let tags = "sim:felica-standard?count=\(rows)&uid=012EA50000000001&store=\(folder.store.path)"
        let (emulator, slave) = try await ChildProvision.pn532(["--tags", tags, "--line"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let run = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", "nfc:pn532_uart:" + slave, "--quiet", "--idle", "5"],
                directory: folder.url)
        }
        #expect(try await emulator.stop() == 0)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let records = try folder.query("SELECT row, uid, state, chip, locked FROM records ORDER BY row")
        #expect(records.map { Array($0[2...]) } == Array(repeating: ["done", "felica-standard", "0"], count: rows))
        for record in records {
            let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(record[1]).bin")))
            try #require(image.count == 14 * 16, "blocks 0-13: \(image.count) bytes")
            let attributes = try Type3AttributeBlock(Array(image[0..<16]))
            #expect(attributes.blocksPerWrite == 4 && attributes.writeFlag == 0)
            let message = try NDEFMessage(bytes: Array(image[16..<(16 + attributes.length)]))
            let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
            #expect(uri.hasSuffix("?u=\(record[1])"), "\(uri)")
        }
        let exchanges = try folder.query("SELECT exchanges FROM attempts WHERE outcome = 'done'").map { $0[0] }
        let simulated = try JobFolder(job: "s", rows: rows, tag: "felica-standard", lock: false)
        let sim = try ProvisionProcess.run(
            [
                "run", "job.json", "--reader",
                simulated.sim("felica-standard", uid: "012EA50000000001", options: "count=2"),
            ],
            directory: simulated.url)
        #expect(sim.status == 0, "\(sim.stderr)")
        #expect(
            exchanges == (try simulated.query("SELECT exchanges FROM attempts WHERE outcome = 'done'").map { $0[0] }))

        let locked = try JobFolder(job: "l", rows: 1, tag: "felica-standard", lock: true)
        let refused = try ProvisionProcess.run(
            [
                "run", "job.json", "--reader",
                locked.sim("felica-standard", uid: "012EA60000000001", options: "count=1"),
            ],
            directory: locked.url)
        #expect(refused.status != 0)
        #expect(try locked.query("SELECT DISTINCT failure_class FROM attempts") == [["lockUnsupported"]])
    }
}
