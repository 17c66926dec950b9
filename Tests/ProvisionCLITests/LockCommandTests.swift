import Foundation
import TestSupport
import Testing

/// `provision lock` end to end through the built binary on the simulated reader.
@Suite struct LockCommandTests {
    @Test func lockWithYesWritesTheChipLockBytesAndConfirms() throws {
        let store = try SimStore(chip: "ntag216")
        defer { store.remove() }
        let outcome = try ProvisionProcess.run(["lock", "--reader", store.spec(), "--yes"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("wrote     page 03h: E1 10 6D 0F"))
        #expect(outcome.stdout.contains("wrote     page 02h: 00 00 FF FF"))
        #expect(outcome.stdout.contains("wrote     page E2h: FF 3F 7F 00"))
        #expect(outcome.stdout.contains("permanently read-only"))
        let report = try jsonOutput(["inspect", "--reader", store.spec(), "--json"])
        #expect(value(report, "ndef", "status") as? String == "readOnly")
        #expect(value(report, "locks", "dynamic_bytes") as? String == "FF 3F 7F BD")
    }

    @Test func answeringAnythingButLOCKWritesNothing() throws {
        let store = try SimStore(chip: "ntag213")
        defer { store.remove() }
        #expect(try ProvisionProcess.run(["inspect", "--reader", store.spec()]).status == 0)
        let before = try store.image()
        let outcome = try ProvisionProcess.run(["lock", "--reader", store.spec()], stdin: Data("no\n".utf8))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("Type LOCK to continue"))
        #expect(outcome.stderr.contains("not confirmed"))
        #expect(!outcome.stdout.contains("wrote"))
        #expect(try store.image() == before)
        let report = try jsonOutput(["inspect", "--reader", store.spec(), "--json"])
        #expect(value(report, "ndef", "status") as? String == "readWrite")
    }

    @Test func answeringLOCKLocks() throws {
        let store = try SimStore(chip: "ntag215")
        defer { store.remove() }
        let outcome = try ProvisionProcess.run(["lock", "--reader", store.spec()], stdin: Data("LOCK\n".utf8))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("wrote     page 82h: FF 00 0F 00"))
        let image = try store.image()
        #expect(Array(image[12..<16]) == [0xE1, 0x10, 0x3E, 0x0F])
        #expect(Array(image[10..<12]) == [0xFF, 0xFF])
    }

    @Test func helpExplainsConfirmationAndSpecs() throws {
        let help = try ProvisionProcess.run(["lock", "--help"])
        #expect(help.status == 0)
        for text in ["--yes", "type LOCK", "Examples:", "Reader specs"] {
            #expect(help.stdout.contains(text), "missing \(text)")
        }
    }
}
