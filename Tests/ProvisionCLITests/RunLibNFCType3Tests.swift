import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// Type 3 (FeliCa Lite-S) through stock libnfc (`pn532_uart`) to a `provision emulate pn532` child, as a line
/// engineer runs it: `run` with lock, `audit`, `inspect` and `write`; the same job on the in-process simulator gives
/// the reference frame count; nfcpy, through its own PN532 driver and Type 3 code, reads what we wrote (nfc-list:
/// `PN532EmulatorFeliCaTests`).
@Suite(.serialized) struct RunLibNFCType3Tests {
    /// Every row done on a locked Lite-S: the ledger's IDm names a stored image holding the row's message, MC
    /// permanently read-only and RWFlag 00. Returns the frames of each done attempt.
    private func expectDoneAndLocked(_ folder: JobFolder, rows: Int) throws -> [Int] {
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        let tags = try folder.query("SELECT row, uid, bytes_sha256, chip, family, locked FROM tags ORDER BY row")
        #expect(tags.count == rows)
        for tag in tags {
            #expect(tag[3] == "felica-lite-s" && tag[4] == "type3" && tag[5] == "1", "\(tag)")
            #expect(tag[1].count == 16 && tag[1].hasPrefix("012E"), "the IDm, 16 hex digits: \(tag[1])")
            let blocks = try Type3RunTests.blocks(folder, idm: tag[1])
            let message = try Type3RunTests.message(blocks)
            #expect(Hex.compact(Crypto256.sha(message)).lowercased() == tag[2].lowercased(), "row \(tag[0])")
            let uri = try NDEFMessage(bytes: message).records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
            #expect(uri.hasPrefix("https://example.com/p/SKU-\(tag[0])/") && uri.hasSuffix("?u=\(tag[1])"), "\(uri)")
            #expect(FeliCaMemoryConfiguration(blocks[FeliCaLiteS.mc]!).isPermanentlyReadOnly)
            #expect(try Type3AttributeBlock(blocks[0]!).rwFlag == 0)
        }
        return try folder.query("SELECT exchanges FROM attempts WHERE outcome = 'done' ORDER BY row").map {
            Int($0[0]) ?? -1
        }
    }

    @Test func lockedType3JobThroughLibnfcMatchesTheSimulatorThenAuditsAndNfcpyReadsIt() async throws {
        let rows = 3
        let folder = try JobFolder(rows: rows, tag: "felica-lite-s", lock: true)
        let population = "sim:felica-lite-s?count=\(rows)&uid=04B30000000001&store=\(folder.store.path)"
        let (emulator, slave) = try await ChildProvision.pn532(["--tags", population, "--line"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let run = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", "nfc:pn532_uart:" + slave, "--quiet", "--idle", "20"],
                directory: folder.url)
        }
        #expect(try await emulator.stop() == 0)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let throughLibnfc = try expectDoneAndLocked(folder, rows: rows)

        let simulated = try JobFolder(job: "s", rows: rows, tag: "felica-lite-s", lock: true)
        let sim = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--quiet", "--reader", simulated.sim("felica-lite-s", uid: "04B30000000001")],
                directory: simulated.url)
        }
        #expect(sim.status == 0, "\(sim.stderr)")
        #expect(throughLibnfc == (try expectDoneAndLocked(simulated, rows: rows)), "the same frames a tag")

        // QA audit of the stored tags through libnfc: every tag matches its ledger row.
        let (auditor, auditSlave) = try await ChildProvision.pn532(["--tags", population, "--line"])
        let audit = try await onThread {
            try ProvisionProcess.run(
                ["audit", "job.json", "--reader", "nfc:pn532_uart:" + auditSlave, "--count", "\(rows)", "--json"],
                directory: folder.url)
        }
        #expect(try await auditor.stop() == 0)
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
        let verdict = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        #expect(verdict["passed"] as? Bool == true && verdict["tags"] as? Int == rows, "\(audit.stdout)")

        // nfcpy finds a read-only Lite-S with our message.
        let first = try #require(try folder.query("SELECT uid FROM tags WHERE row = 1").first?.first)
        let (reader, nfcpySlave) = try await ChildProvision.pn532(
            ["--tags", "sim:felica-lite-s?count=1&uid=04B30000000001&store=\(folder.store.path)", "--lenient-power"])
        let nfcpy = try await NfcpyReader.readTag(at: nfcpySlave)
        #expect(try await reader.stop() == 0)
        #expect(nfcpy.status == 0, "\(nfcpy.stdout)\(nfcpy.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(nfcpy.stdout.utf8)) as? [String: Any])
        #expect(seen["type"] as? String == "FelicaLiteS" && seen["writeable"] as? Bool == false, "\(nfcpy.stdout)")
        let records = try #require(seen["ndef"] as? [[String: Any]], "\(nfcpy.stdout)")
        // The job's URI and Text records; nfcpy percent-encodes the query's `=` (`?u%3D…`).
        let uri = (records.first?["uri"] as? String)?.removingPercentEncoding ?? ""
        #expect(records.map { $0["type"] as? String } == ["urn:nfc:wkt:U", "urn:nfc:wkt:T"], "\(nfcpy.stdout)")
        #expect(uri.hasPrefix("https://example.com/p/SKU-1/") && uri.hasSuffix("?u=\(first)"), "\(uri)")
    }

    @Test func writeAndInspectThroughLibnfc() async throws {
        let folder = try JobFolder(rows: 1, tag: "felica-lite-s", lock: false)
        let spec = "sim:felica-lite-s?count=1&uid=04B40000000001&store=\(folder.store.path)"
        let (emulator, slave) = try await ChildProvision.pn532(["--tags", spec])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let reader = "nfc:pn532_uart:" + slave
        let write = try await onThread {
            try ProvisionProcess.run(
                ["write", "--reader", reader, "--uri", "https://example.com/felica/1", "--json"], directory: folder.url)
        }
        #expect(write.status == 0, "\(write.stdout)\(write.stderr)")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(write.stdout.utf8)) as? [String: Any])
        #expect(written["outcome"] as? String == "written" && written["uid"] as? String == "012EB40000000001")

        let inspect = try await onThread {
            try ProvisionProcess.run(["inspect", "--reader", reader], directory: folder.url)
        }
        #expect(try await emulator.stop() == 0)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        for line in [
            "UID         012EB40000000001 (FeliCa IDm)", "PMm         00 F1 00 00 00 01 43 00, IC type F1",
            "Systems     12 FC, 88 B4", "https://example.com/felica/1",
        ] {
            #expect(inspect.stdout.contains(line), "\(line) in \(inspect.stdout)")
        }
        let blocks = try Type3RunTests.blocks(folder, idm: "012EB40000000001")
        let uri = try NDEFMessage(bytes: try Type3RunTests.message(blocks)).records.first?.wellKnownTypeURIPayload()
        #expect(uri?.absoluteString == "https://example.com/felica/1")
    }
}
