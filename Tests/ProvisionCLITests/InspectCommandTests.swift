import Foundation
import TestSupport
import Testing

/// `provision inspect` end to end through the built binary on the simulated reader.
@Suite struct InspectCommandTests {
    @Test func textShowsEveryFactOfAFactoryTag() throws {
        let outcome = try ProvisionProcess.run(["inspect", "--reader", "sim:ntag213?uid=04517CE1ED2580"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let text = outcome.stdout
        #expect(text.contains("04517CE1ED2580"))
        #expect(text.contains("pages 0–2 consistent"))
        #expect(text.contains("NTAG213, GET_VERSION 00 04 04 02 01 00 0F 03, vendor 04 (NXP)"))
        #expect(text.contains("readWrite, capacity 137 bytes, empty message"))
        #expect(text.contains("static 00 00"))
        #expect(text.contains("dynamic 00 00 00 BD"))
        #expect(text.contains("CC E1 10 12 00"))
        #expect(text.contains("AUTH0 FFh (no password protection), PROT 0, CFGLCK 0, AUTHLIM 0"))
        #expect(text.contains("testKey: valid under the repository's test key only"))
        #expect(!text.contains("Dump"))
    }

    @Test func dumpListsEveryPage() throws {
        let outcome = try ProvisionProcess.run(["inspect", "--reader", "sim:ntag213?uid=04517CE1ED2580", "--dump"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("Dump (45 pages)"))
        #expect(outcome.stdout.contains("00h  04 51 7C A1"))
        #expect(outcome.stdout.contains("04h  01 03 A0 0C"))
        #expect(outcome.stdout.contains("2Ch  00 00 00 00"))
        let report = try jsonOutput(["inspect", "--reader", "sim:ntag216", "--dump", "--json"])
        let pages = try #require(report["units"] as? [String])
        #expect(pages.count == 231)
        #expect(pages[3] == "E1 10 6D 00")
    }

    @Test func jsonHasTheDocumentedKeys() throws {
        let report = try jsonOutput(["inspect", "--reader", "sim:ntag215", "--json"])
        for key in [
            "version", "reader", "uid", "atqa", "sak", "uid_anomalies", "chip", "ndef", "locks", "protection",
            "signature", "raw_commands", "notes", "cost", "unit_kind",
        ] {
            #expect(report[key] != nil, "missing \(key)")
        }
        #expect(report["version"] as? Int == 2)
        #expect(report["units"] == nil)
        #expect(value(report, "protection", "auth0") as? Int == 255)
        #expect(value(report, "protection", "nfc_counter_enabled") as? Bool == false)
        #expect(value(report, "chip", "suspected_clone") as? Bool == false)
        #expect((value(report, "cost", "exchanges") as? Int ?? 0) > 0)
    }

    /// A tap URL longer than the 60 characters a one-line summary shortens text to.
    static let tapURL = "https://example.com/tap/04A1B2C3D4E5F6?counter=000042&mac=0123456789ABCDEF0123456789ABCDEF"

    /// Writes a URI, a little-endian UTF-16 Text and a media record to a fresh simulated tag.
    private func storeWithRecords() throws -> SimStore {
        let store = try SimStore()
        let message = """
            {"records": [
              {"type": "uri", "uri": "\(Self.tapURL)"},
              {"type": "text", "text": "Grüße", "lang": "de", "encoding": "utf16", "byteOrder": "le-bom"},
              {"type": "mime", "mediaType": "application/octet-stream", "hex": "00FF"}
            ]}
            """
        let write = try ProvisionProcess.run(["write", "--reader", store.spec(), "-"], stdin: Data(message.utf8))
        #expect(write.status == 0, "\(write.stderr)")
        return store
    }

    @Test func jsonRecordsCarryTheirRecordJSONWhichEncodesBackToTheMessage() throws {
        let store = try storeWithRecords()
        defer { store.remove() }
        let report = try jsonOutput(["inspect", "--reader", store.spec(), "--json"])
        let records = try #require(value(report, "ndef", "records") as? [[String: Any]])
        let objects = records.compactMap { $0["record"] as? [String: Any] }
        #expect(objects.count == 3)
        #expect(objects.first as? [String: String] == ["type": "uri", "uri": Self.tapURL])
        #expect(
            objects.dropFirst().first as? [String: String] == [
                "type": "text", "text": "Grüße", "lang": "de", "encoding": "utf16", "byteOrder": "le-bom",
            ])
        #expect(
            objects.last as? [String: String] == [
                "type": "mime", "mediaType": "application/octet-stream", "hex": "00FF",
            ])
        for key in ["index", "tnf", "type", "id", "payload_hex", "summary"] {
            #expect(records.allSatisfy { $0[key] != nil }, "missing \(key)")
        }
        // The objects, as a user would copy them out, are record JSON for the very bytes on the tag.
        let document = try JSONSerialization.data(withJSONObject: ["records": objects])
        let encoded = try ProvisionProcess.run(["ndef", "encode"], stdin: document)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout == "\(try #require(value(report, "ndef", "message_hex") as? String))\n")
    }

    @Test func textShowsTheWholeURI() throws {
        let store = try storeWithRecords()
        defer { store.remove() }
        let outcome = try ProvisionProcess.run(["inspect", "--reader", store.spec()])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("URI \"\(Self.tapURL)\","), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("text \"Grüße\" (de, utf16 le-bom)"))
    }

    @Test func notNDEFTagIsReportedNotFailed() throws {
        let report = try jsonOutput(["inspect", "--reader", "sim:mf0ul11", "--json"])
        #expect(value(report, "ndef", "status") as? String == "notSupported")
        #expect(value(report, "ndef", "capacity") as? Int == 0)
        #expect(value(report, "chip", "model") as? String == "mf0ul11")
    }

    @Test func noTagInTimeExits69() throws {
        // count=0: a population fed only by control sockets, so the field stays empty.
        let outcome = try ProvisionProcess.run(["inspect", "--reader", "sim:ntag215?count=0", "--timeout", "0.3"])
        #expect(outcome.status == 69)
        #expect(outcome.stderr.contains("no tag on sim:ntag215 within 0.300 s"))
    }

    @Test func badSpecsAndOptionsExit64() throws {
        let badChip = try ProvisionProcess.run(["inspect", "--reader", "sim:ntag999"])
        #expect(badChip.status == 64)
        #expect(badChip.stderr.hasPrefix("error: reader 'sim:ntag999': unknown chip"))
        let badBackend = try ProvisionProcess.run(["inspect", "--reader", "usb:thing"])
        #expect(badBackend.status == 64)
        let badTimeout = try ProvisionProcess.run(["inspect", "--timeout", "soon"])
        #expect(badTimeout.status == 64)
    }

    @Test func helpExplainsOptionsJSONAndSpecs() throws {
        let help = try ProvisionProcess.run(["inspect", "--help"])
        #expect(help.status == 0)
        for text in ["--dump", "--json", "--timeout SECONDS", "version 2", "Examples:", "Reader specs"] {
            #expect(help.stdout.contains(text), "missing \(text)")
        }
    }
}
