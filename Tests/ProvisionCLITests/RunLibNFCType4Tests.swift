import Foundation
import NDEF
import TestSupport
import Testing

/// `provision run` of a Type 4 job through stock libnfc (`pn532_uart`) to a `provision emulate pn532 --line`
/// child: the PN532 does ISO-DEP, our libnfc backend sends whole APDUs; the same job on the in-process
/// simulator gives the reference APDU count and modelled airtime per tag.
@Suite(.serialized) struct RunLibNFCType4Tests {
    /// The NDEF message in a stored NTAG 424 DNA image: CC file (32 bytes), then NLEN and the message in file 02.
    private func message(inImageOf uid: String, store: URL) throws -> NDEFMessage {
        let image = [UInt8](try Data(contentsOf: store.appendingPathComponent("\(uid).bin")))
        try #require(image.count == 32 + 256 + 128, "an NTAG 424 DNA image: \(image.count) bytes")
        let length = Int(image[32]) << 8 | Int(image[33])
        try #require(length >= 3 && length <= 254, "NLEN \(length)")
        return try NDEFMessage(bytes: Array(image[34..<(34 + length)]))
    }

    /// Every row done on an NTAG 424 DNA, ledger and stored images agreeing; returns exchanges and airtime (µs)
    /// per done attempt.
    private func expectDone(_ folder: JobFolder, rows: Int) throws -> [(exchanges: Int, airtime: Int?)] {
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        let tags = try folder.query("SELECT row, uid, bytes_sha256, chip, family, locked FROM tags ORDER BY row")
        #expect(tags.count == rows)
        for tag in tags {
            #expect(tag[3] == "ntag424" && tag[4] == "type4" && tag[5] == "0", "\(tag)")
            let message = try message(inImageOf: tag[1], store: folder.store)
            #expect(Hex.compact(Crypto256.sha(message.bytes)).lowercased() == tag[2].lowercased(), "row \(tag[0])")
            let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
            #expect(uri.hasPrefix("https://example.com/p/SKU-\(tag[0])/") && uri.hasSuffix("?u=\(tag[1])"), "\(uri)")
        }
        return try folder.query("SELECT exchanges, airtime_us FROM attempts WHERE outcome = 'done' ORDER BY row")
            .map { (Int($0[0]) ?? -1, Int($0[1])) }
    }

    @Test func type4JobThroughLibnfcMatchesTheSimulatorAPDUForAPDU() async throws {
        let rows = 4
        let folder = try JobFolder(rows: rows, tag: "ntag424", lock: false)
        let control = folder.url.appendingPathComponent("pn532.sock").path
        let (emulator, slave) = try await ChildProvision.pn532(
            [
                "--tags", "sim:ntag424?count=\(rows + 2)&uid=04D40000000000&store=\(folder.store.path)", "--line",
                "--control", control,
            ])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let libnfc = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", "nfc:pn532_uart:" + slave, "--quiet", "--idle", "20"],
                directory: folder.url)
        }
        #expect(libnfc.status == 0, "\(libnfc.stdout)\(libnfc.stderr)")
        let stats = try controlRequest(control, "stats")
        #expect(try await emulator.stop() == 0)
        let throughLibnfc = try expectDone(folder, rows: rows)
        #expect(throughLibnfc.allSatisfy { $0.airtime == nil }, "a libnfc reader models no airtime")

        let simulated = try JobFolder(job: "s", rows: rows, tag: "ntag424", lock: false)
        let sim = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--reader",
                    "sim:ntag424?count=\(rows)&uid=04D40000000000&store=\(simulated.store.path)", "--quiet",
                ], directory: simulated.url)
        }
        #expect(sim.status == 0, "\(sim.stdout)\(sim.stderr)")
        let inSimulator = try expectDone(simulated, rows: rows)
        #expect(throughLibnfc.map(\.exchanges) == inSimulator.map(\.exchanges), "the same APDUs per tag")
        let airtime = stats.split(separator: " ").first { $0.hasPrefix("airtime_us=") }.flatMap {
            Int($0.dropFirst("airtime_us=".count))
        }
        let emulatorAirtime = try #require(airtime, "\(stats)")
        let simulatorAirtime = inSimulator.compactMap(\.airtime).reduce(0, +)
        #expect(emulatorAirtime >= simulatorAirtime, "the PN532 path adds activations and releases, never less")
        print(
            "type 4 per tag: libnfc \(throughLibnfc.map(\.exchanges)) APDUs, emulator airtime "
                + "\(emulatorAirtime / rows) µs/tag (activations and releases included); simulator "
                + "\(inSimulator.map(\.exchanges)) APDUs, airtime \(inSimulator.map { $0.airtime ?? -1 }) µs")
    }

    @Test func keyedNTAG424PersonalisationRunsThroughLibnfcInTwentyOneAPDUs() async throws {
        let rows = 2
        let folder = try RunNTAG424Tests.folder(rows: rows)
        let (emulator, slave) = try await ChildProvision.pn532(
            ["--tags", "sim:ntag424?count=\(rows)&uid=04D60000000001&store=\(folder.store.path)", "--line"])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        let run = try await onThread {
            try ProvisionProcess.run(
                // The job's master is the repository's sample key: allowed on this emulated tag.
                [
                    "run", "job.json", "--reader", "nfc:pn532_uart:" + slave, "--quiet", "--idle", "20",
                    "--allow-test-keys",
                ],
                directory: folder.url, environment: RunNTAG424Tests.environment)
        }
        #expect(try await emulator.stop() == 0)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
        #expect(
            try folder.query("SELECT count(*), min(state), max(state) FROM key_changes") == [["10", "done", "done"]])
        #expect(
            try folder.query("SELECT DISTINCT exchanges, locked FROM attempts JOIN tags USING (job, row)") == [
                ["21", "1"]
            ])
    }
}
