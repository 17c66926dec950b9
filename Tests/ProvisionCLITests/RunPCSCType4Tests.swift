import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// Every row done, recorded as `chip` of family `type4`, and each tag's stored NDEF file holds exactly the
/// message the ledger hashed, with the row's URI (`ndefFileOffset`: where the NDEF file starts in the image).
private func expectType4LedgerAndImagesAgree(_ folder: JobFolder, rows: Int, chip: String, ndefFileOffset: Int) throws {
    #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'done'") == [[String(rows)]])
    #expect(try folder.query("SELECT DISTINCT chip, family FROM records") == [[chip, "type4"]])
    let tags = try folder.query("SELECT row, uid, bytes_sha256, chip FROM tags ORDER BY row")
    #expect(tags.count == rows)
    for tag in tags {
        #expect(tag[3] == chip)
        let image = [UInt8](try Data(contentsOf: folder.store.appendingPathComponent("\(tag[1]).bin")))
        let length = Int(image[ndefFileOffset]) << 8 | Int(image[ndefFileOffset + 1])
        let bytes = Array(image[(ndefFileOffset + 2)..<(ndefFileOffset + 2 + length)])
        #expect(Hex.compact(Crypto256.sha(bytes)).lowercased() == tag[2].lowercased(), "row \(tag[0])")
        let message = try NDEFMessage(bytes: bytes)
        let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
        #expect(uri.hasPrefix("https://example.com/p/SKU-\(tag[0])/") && uri.hasSuffix("?u=\(tag[1])"), "\(uri)")
    }
}

/// The mean of each recorded phase time over the done attempts of `folder`'s ledger, in microseconds.
private func phases(_ folder: JobFolder) throws -> String {
    let names = ["detect", "identify", "write", "verify", "ledger", "removal"]
    let columns = names.map { "avg(coalesce(\($0)_us, 0))" }.joined(separator: ", ")
    let means = try folder.query("SELECT \(columns), avg(airtime_us) FROM attempts WHERE outcome = 'done'")
    let values = means.first ?? []
    return zip(names + ["airtime"], values).map { name, value in
        "\(name)=" + (Double(value).map { String(Int($0)) } ?? "n/a")
    }.joined(separator: " ")
}

/// `provision run`, `inspect` and `audit` on Type 4 tags through a real pcscd, the vpcd driver and the
/// virtual card: `PCSCReader` tells the family by the ATR, the pipeline picks Type 4.
@Suite(.serialized, .timeLimit(.minutes(5))) struct RunPCSCType4Tests {
    @Test func ntag424JobRunsInspectsAndAuditsThroughPCSC() async throws {
        let rows = 3
        let folder = try JobFolder(job: "t4", rows: rows, tag: "ntag424", lock: false)
        let spec = "sim:ntag424?count=\(rows)&uid=04D10000000001&store=\(folder.store.path)"
        try await withStation { station in
            let (run, stats) = try await station.withCard(spec) { card in
                let (outcome, seconds) = try await provisionTimed(
                    folder, ["run", "job.json", "--quiet", "--idle", "15", "--reader", "pcsc:#0?style=acr122u"])
                let stats = await card.command("stats")
                print(
                    "pcsc type4 run: \(rows) ntag424 in \(String(format: "%.2f", seconds)) s; "
                        + "\(counters(stats)["apdus"].map { Double($0) / Double(rows) } ?? 0) APDUs/tag; \(stats)")
                return (outcome, stats)
            }
            #expect(run.status == 0, "\(run.stderr)")
            try expectType4LedgerAndImagesAgree(folder, rows: rows, chip: "ntag424", ndefFileOffset: 32)
            let values = counters(stats)
            #expect(values["read"] == 0 && values["update"] == 0, "no storage-card APDU reached the card: \(stats)")
            // Every APDU was the reader's (FF CA UID/ATS, FF 00 40 LED) or an ISO 7816 one for the tag.
            let readerAPDUs = (values["uid"] ?? 0) + (values["feedback"] ?? 0)
            #expect((values["iso"] ?? 0) > 0 && values["iso"] == (values["apdus"] ?? 0) - readerAPDUs, "\(stats)")
            #expect(values["feedback"] == rows, "one pass signal per tag")
            #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome != 'done'") == [["0"]])

            let inspect = try await station.withCard(spec) { _ in
                try await provisionTimed(folder, ["inspect", "--reader", "pcsc:#0?style=acr122u", "--json"]).0
            }
            #expect(inspect.status == 0, "\(inspect.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
            #expect(object["uid"] as? String == "04D10000000001")
            let chip = try #require(object["protection"] as? [String: Any], "\(inspect.stdout)")
            #expect(chip["ats"] as? String == "06 77 77 71 02 80")
            #expect(chip["historical_bytes"] as? String == "80")
            #expect((object["chip"] as? [String: Any])?["model"] as? String == "ntag424", "\(inspect.stdout)")
            #expect(inspect.stdout.contains("https://example.com/p/SKU-1/"))

            let (audit, auditStats) = try await station.withCard(spec) { card in
                let outcome = try await provisionTimed(
                    folder, ["audit", "job.json", "--reader", "pcsc:#0?style=acr122u", "--count", "\(rows)", "--json"]
                ).0
                return (outcome, await card.command("stats"))
            }
            #expect(audit.status == 0, "\(audit.stderr)")
            let verdict = try json(audit)
            #expect(verdict["passed"] as? Bool == true, "\(audit.stdout)\ncard: \(auditStats)")
            #expect((verdict["counts"] as? [String: Int])?["pass"] == rows, "\(audit.stdout)")
        }
    }

    @Test func keyedNTAG424PersonalisationRunsThroughPCSCWithEveryAPDUPassedUnchanged() async throws {
        let rows = 2
        let folder = try RunNTAG424Tests.folder(rows: rows)
        let spec = "sim:ntag424?count=\(rows)&uid=04D30000000001&store=\(folder.store.path)"
        try await withStation(style: .plain) { station in
            let (run, stats) = try await station.withCard(spec) { card in
                let outcome = try await onThread {
                    try ProvisionProcess.run(
                        // The job's master is the repository's sample key: allowed on this emulated card.
                        [
                            "run", "job.json", "--quiet", "--idle", "15", "--allow-test-keys", "--reader",
                            "pcsc:#0?style=plain",
                        ],
                        directory: folder.url, environment: RunNTAG424Tests.environment)
                }
                return (outcome, await card.command("stats"))
            }
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])
            #expect(
                try folder.query("SELECT count(*), min(state), max(state) FROM key_changes") == [
                    ["10", "done", "done"]
                ])
            let values = counters(stats)
            // A plain reader has no raw path: EV2 authentication, ChangeKey and SUN all went as ordinary APDUs.
            #expect(values["read"] == 0 && values["update"] == 0, "\(stats)")
            #expect((values["iso"] ?? 0) >= 21 * rows, "\(stats)")
        }
    }

    @Test func genericType4JobWithSmallMLeAndMLcRunsOnAPlainReader() async throws {
        let rows = 2
        let folder = try JobFolder(job: "g4", rows: rows, tag: "type4", lock: false)
        let spec = "sim:type4?count=\(rows)&uid=04D20000000001&size=512&mle=59&mlc=52&store=\(folder.store.path)"
        try await withStation(style: .plain) { station in
            let (run, stats) = try await station.withCard(spec) { card in
                let (outcome, seconds) = try await provisionTimed(
                    folder, ["run", "job.json", "--quiet", "--idle", "15", "--reader", "pcsc:#0?style=plain"])
                let stats = await card.command("stats")
                print("pcsc type4 generic run: \(rows) tags in \(String(format: "%.2f", seconds)) s; \(stats)")
                return (outcome, stats)
            }
            #expect(run.status == 0, "\(run.stderr)")
            try expectType4LedgerAndImagesAgree(folder, rows: rows, chip: "type4", ndefFileOffset: 15)
            #expect(counters(stats)["read"] == 0 && counters(stats)["update"] == 0, "\(stats)")
            let audit = try await station.withCard(spec) { _ in
                try await provisionTimed(
                    folder, ["audit", "job.json", "--reader", "pcsc:#0?style=plain", "--count", "\(rows)", "--json"]
                ).0
            }
            #expect(audit.status == 0, "\(audit.stderr)")
            #expect(try json(audit)["passed"] as? Bool == true, "\(audit.stdout)")
        }
    }

    /// Read_Sig is an ordinary APDU: a plain PC/SC reader (no raw path) still sends it, so an NTAG 424 DNA job
    /// requiring the signature runs there and records it (a Type 2 job would stop before the first tag).
    @Test func ntag424SignatureIsRequiredThroughAPlainReader() async throws {
        let rows = 2
        let trust = #"{"mode": "require", "trust": ["\#(ntag424TestTrustHex)"]}"#
        let folder = try JobFolder(
            job: "s4", rows: rows, tag: "ntag424", lock: false, extra: ", \"signature\": \(trust)")
        let spec = "sim:ntag424?count=\(rows)&uid=04D40000000001&store=\(folder.store.path)"
        try await withStation(style: .plain) { station in
            let run = try await station.withCard(spec) { _ in
                try await provisionTimed(
                    folder,
                    [
                        "run", "job.json", "--quiet", "--idle", "15", "--allow-test-keys", "--reader",
                        "pcsc:#0?style=plain",
                    ]
                ).0
            }
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try folder.query("SELECT signature_status FROM tags") == [["valid"], ["valid"]])
            try expectType4LedgerAndImagesAgree(folder, rows: rows, chip: "ntag424", ndefFileOffset: 32)
        }
    }

    /// The same ntag424 job on the in-process simulator and through pcscd + vpcd: the same exchanges per tag
    /// reach the tag; PC/SC adds only the reader's own pseudo-APDUs (UID and ATS reads).
    @Test func exchangesPerTagMatchTheSimulatorAndWallTimeIsMeasured() async throws {
        let rows = 4
        let simulated = try JobFolder(job: "s4", rows: rows, tag: "ntag424", lock: false)
        let (simRun, simSeconds) = try await provisionTimed(
            simulated,
            [
                "run", "job.json", "--quiet", "--reader",
                simulated.sim("ntag424", uid: "04D30000000001", options: "count=\(rows)"),
            ])
        #expect(simRun.status == 0, "\(simRun.stderr)")
        let folder = try JobFolder(job: "p4", rows: rows, tag: "ntag424", lock: false)
        let spec = "sim:ntag424?count=\(rows)&uid=04D30000000001&store=\(folder.store.path)"
        try await withStation { station in
            let (run, seconds, stats) = try await station.withCard(spec) { card in
                let (outcome, seconds) = try await provisionTimed(
                    folder, ["run", "job.json", "--quiet", "--idle", "15", "--reader", "pcsc:#0?style=acr122u"])
                return (outcome, seconds, await card.command("stats"))
            }
            #expect(run.status == 0, "\(run.stderr)")
            let query = "SELECT sum(exchanges) FROM attempts WHERE outcome = 'done'"
            let simExchanges = Int(try simulated.query(query).first?.first ?? "") ?? -1
            let pcscExchanges = Int(try folder.query(query).first?.first ?? "") ?? -2
            #expect(simExchanges == pcscExchanges, "the same tag exchanges on both paths")
            let values = counters(stats)
            #expect(values["iso"] == pcscExchanges, "every exchange the pipeline counted reached the tag: \(stats)")
            let apdus = values["apdus"] ?? 0
            print("type4 phases (mean µs per done tag) simulator: \(try phases(simulated))")
            print("type4 phases (mean µs per done tag) PC/SC:     \(try phases(folder))")
            print(
                String(
                    format: "type4 per tag: simulator %.1f exchanges, %.1f ms wall; PC/SC %.1f tag APDUs + "
                        + "%.1f pseudo-APDUs, %.1f ms wall (whole run incl. start-up and 400 ms presence polls)",
                    Double(simExchanges) / Double(rows), simSeconds * 1000 / Double(rows),
                    Double(pcscExchanges) / Double(rows), Double(apdus - pcscExchanges) / Double(rows),
                    seconds * 1000 / Double(rows)))
        }
    }
}
