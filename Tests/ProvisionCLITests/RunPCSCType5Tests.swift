import Foundation
import NDEF
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// `provision run`, `write`, `inspect` and `audit` on Type 5 (ISO 15693) tags through a real pcscd, the vpcd
/// driver and the virtual card, as a line engineer runs them: `PCSCReader` tells the family by the ATR; the
/// `acr1552u` style carries raw ISO 15693 requests by transparent exchange and can lock, the `storage` style
/// reads and writes blocks with `FF B0`/`FF D6` and refuses a lock before anything is written.
@Suite(.serialized, .timeLimit(.minutes(5))) struct RunPCSCType5Tests {
    /// Every row done and locked as `chip` of family `type5`, with a 16-digit `E0…` UID; each stored image
    /// holds the row's URI in its NDEF TLV.
    private func expectLedgerAndImagesAgree(_ folder: JobFolder, rows: Int, chip: String, locked: Bool) throws {
        let records = try folder.query("SELECT row, uid, state, chip, family, locked FROM records ORDER BY row")
        #expect(
            records.map { Array($0[2...]) }
                == Array(repeating: ["done", chip, "type5", locked ? "1" : "0"], count: rows))
        for record in records {
            #expect(record[1].count == 16 && record[1].hasPrefix("E004"), "MSB first whatever the reader: \(record[1])")
            let image = try Type5RunTests.image(folder, uid: record[1])
            #expect((image[1] == 0x43) == locked, "the CC's write access on \(record[1])")
            let message = try NDEFMessage(bytes: Type5RunTests.message(in: image))
            let uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? ""
            #expect(uri.hasPrefix("https://example.com/p/SKU-\(record[0])/"), "\(uri)")
            #expect(uri.hasSuffix("?u=\(record[1])"), "{{uid}} is the 16-digit UID: \(uri)")
        }
    }

    @Test func anACR1552UJobWithLockRunsInspectsAuditsAndWritesThroughPCSC() async throws {
        let rows = 3
        let folder = try JobFolder(job: "t5", rows: rows, tag: "icode-slix2", lock: true)
        let spec = "sim:icode-slix2?count=\(rows)&uid=E004010800000001&store=\(folder.store.path)"
        let reader = "pcsc:#0?style=acr1552u"
        try await withStation(style: .acr1552u) { station in
            let (run, stats) = try await station.withCard(spec) { card in
                let (outcome, seconds) = try await provisionTimed(
                    folder, ["run", "job.json", "--quiet", "--idle", "15", "--reader", reader])
                let stats = await card.command("stats")
                print("pcsc type5 run: \(rows) icode-slix2 in \(String(format: "%.2f", seconds)) s; \(stats)")
                return (outcome, stats)
            }
            #expect(run.status == 0, "\(run.stderr)")
            try expectLedgerAndImagesAgree(folder, rows: rows, chip: "icode-slix2", locked: true)
            for uid in ["E004010800000001", "E004010800000003"] {
                let image = try Type5RunTests.image(folder, uid: uid)
                let lastBlock = (4 + 2 + Type5RunTests.message(in: image).count) / 4
                #expect(image[320...(320 + lastBlock)].allSatisfy { $0 == 0x01 }, "CC and NDEF blocks locked")
            }
            let values = counters(stats)
            #expect(values["read"] == 0 && values["update"] == 0, "every request by transparent exchange: \(stats)")
            #expect(try folder.query("SELECT count(*) FROM attempts WHERE outcome != 'done'") == [["0"]])

            let inspect = try await station.withCard(spec) { _ in
                try await provisionTimed(folder, ["inspect", "--reader", reader, "--json"]).0
            }
            #expect(inspect.status == 0, "\(inspect.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
            #expect(object["uid"] as? String == "E004010800000001")
            #expect((object["chip"] as? [String: Any])?["model"] as? String == "icode-slix2", "\(inspect.stdout)")
            #expect(inspect.stdout.contains("https://example.com/p/SKU-1/"))

            let audit = try await station.withCard(spec) { _ in
                try await provisionTimed(
                    folder, ["audit", "job.json", "--reader", reader, "--count", "\(rows)", "--json"]
                )
                .0
            }
            #expect(audit.status == 0, "\(audit.stderr)")
            let verdict = try json(audit)
            #expect(verdict["passed"] as? Bool == true, "\(audit.stdout)")
            #expect((verdict["counts"] as? [String: Int])?["pass"] == rows, "\(audit.stdout)")

            let fresh = "sim:icode-slix?count=1&uid=E004011000000009&store=\(folder.store.path)"
            let write = try await station.withCard(fresh) { _ in
                try await provisionTimed(folder, ["write", "--reader", reader, "--uri", "https://example.com"]).0
            }
            #expect(write.status == 0, "\(write.stderr)")
            let image = try Type5RunTests.image(folder, uid: "E004011000000009")
            #expect(
                Hex.string(image.prefix(24))
                    == "E1 40 0E 01 03 10 D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D FE 00")
        }
    }

    @Test func aStorageReaderWritesWithoutLockAndRefusesALockBeforeAnythingIsWritten() async throws {
        let rows = 2
        let reader = "pcsc:#0?style=storage"
        try await withStation(style: .storage) { station in
            let locking = try JobFolder(job: "l5", rows: rows, tag: "icode-slix2", lock: true)
            let lockSpec = "sim:icode-slix2?count=\(rows)&uid=E004010800000011&store=\(locking.store.path)"
            let refused = try await station.withCard(lockSpec) { _ in
                try await provisionTimed(locking, ["run", "job.json", "--quiet", "--idle", "10", "--reader", reader]).0
            }
            #expect(refused.status != 0)
            #expect(try locking.query("SELECT DISTINCT state FROM records") == [["pending"]])
            let attempts = try locking.query("SELECT failure_class, phase FROM attempts")
            #expect(!attempts.isEmpty && attempts.allSatisfy { $0 == ["lockUnsupported", "identify"] }, "\(attempts)")
            for uid in ["E004010800000011", "E004010800000012"] {
                let stored = try? Type5RunTests.image(locking, uid: uid)
                #expect(stored.map { Type5RunTests.message(in: $0).isEmpty } ?? true, "nothing written on \(uid)")
            }

            let folder = try JobFolder(job: "s5", rows: rows, tag: "icode-slix2", lock: false)
            let spec = "sim:icode-slix2?count=\(rows)&uid=E004010800000021&store=\(folder.store.path)"
            let (run, stats) = try await station.withCard(spec) { card in
                let outcome = try await provisionTimed(
                    folder, ["run", "job.json", "--quiet", "--idle", "15", "--reader", reader]
                ).0
                return (outcome, await card.command("stats"))
            }
            #expect(run.status == 0, "\(run.stderr)")
            try expectLedgerAndImagesAgree(folder, rows: rows, chip: "icode-slix2", locked: false)
            let values = counters(stats)
            #expect(values["raw"] == 0 && (values["update"] ?? 0) > 0, "storage-card APDUs only: \(stats)")

            let audit = try await station.withCard(spec) { _ in
                try await provisionTimed(
                    folder, ["audit", "job.json", "--reader", reader, "--count", "\(rows)", "--json"]
                )
                .0
            }
            #expect(audit.status == 0, "\(audit.stderr)")
            #expect(try json(audit)["passed"] as? Bool == true, "\(audit.stdout)")
            let inspect = try await station.withCard(spec) { _ in
                try await provisionTimed(folder, ["inspect", "--reader", reader]).0
            }
            #expect(inspect.status == 0, "\(inspect.stderr)")
            #expect(inspect.stdout.contains("E004010800000021"), "\(inspect.stdout)")
        }
    }

    @Test func readersSaysWhichReadersReachType5() async throws {
        let daemon = try await PCSCDaemon.start(slots: 1) { try PCSCReader.listReaders().count }
        let listing = try await onThread { try ProvisionProcess.run(["readers", "--json"]) }
        let text = try await onThread { try ProvisionProcess.run(["readers"]) }
        await daemon.stop()
        #expect(listing.status == 0, "\(listing.stderr)")
        let object = try json(listing)
        let readers = try #require(object["readers"] as? [[String: Any]])
        let pcsc = readers.filter { $0["backend"] as? String == "pcsc" && $0["available"] as? Bool == true }
        #expect(!pcsc.isEmpty, "\(listing.stdout)")
        // vpcd's reader name names no known family: a plain storage-card reader, no lock.
        #expect(pcsc.allSatisfy { $0["type5"] as? String == "storage" }, "\(listing.stdout)")
        #expect(text.stdout.contains("Type 5 (ISO 15693): read and write by FF B0/FF D6 only"), "\(text.stdout)")
    }
}
