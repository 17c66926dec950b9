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
        let pages = try #require(report["pages"] as? [String])
        #expect(pages.count == 231)
        #expect(pages[3] == "E1 10 6D 00")
    }

    @Test func jsonHasTheDocumentedKeys() throws {
        let report = try jsonOutput(["inspect", "--reader", "sim:ntag215", "--json"])
        for key in [
            "version", "reader", "uid", "atqa", "sak", "uidAnomalies", "chip", "ndef", "locks", "protection",
            "signature", "rawCommands", "notes", "cost",
        ] {
            #expect(report[key] != nil, "missing \(key)")
        }
        #expect(report["version"] as? Int == 1)
        #expect(report["pages"] == nil)
        #expect(value(report, "protection", "auth0") as? Int == 255)
        #expect(value(report, "protection", "nfcCounterEnabled") as? Bool == false)
        #expect(value(report, "chip", "suspectedClone") as? Bool == false)
        #expect((value(report, "cost", "exchanges") as? Int ?? 0) > 0)
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
        for text in ["--dump", "--json", "--timeout SECONDS", "version 1", "Examples:", "Reader specs"] {
            #expect(help.stdout.contains(text), "missing \(text)")
        }
    }
}
