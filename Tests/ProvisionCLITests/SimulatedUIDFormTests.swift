import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// Issue 40 item 3: every `sim:` chip (`SimulationOptions.chipNames`) takes a `uid=` in its family's form, and
/// every way of presenting it shows exactly that UID: `inspect` on the in-process reader, `emulate pn532` read by
/// stock libnfc, and `emulate vpcd` read through pcscd; a UID of another form is a usage error naming the form.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct SimulatedUIDFormTests {
    private static func spec(_ chip: String, _ uid: [UInt8]) -> String { "sim:\(chip)?uid=\(Hex.compact(uid))" }

    @Test func inspectShowsEveryChipsUIDAsGiven() throws {
        for (chip, uid) in try SimulatedChipUIDs.all() {
            let outcome = try ProvisionProcess.run(["inspect", "--reader", Self.spec(chip, uid)])
            #expect(outcome.status == 0, "\(chip): \(outcome.stderr)")
            let line = outcome.stdout.split(separator: "\n").first { $0.hasPrefix("UID ") }
            #expect(
                line?.split(separator: " ").dropFirst().first == Substring(Hex.compact(uid)), "\(chip): \(line ?? "")")
        }
    }

    @Test func aUIDOfAnotherFormIsAUsageErrorNamingTheChipAndItsForm() throws {
        let cases = [
            ("sim:felica-lite-s?uid=04273D23BA0BA1", "uid for felica-lite-s must be its IDm, 16 hex digits (8 bytes)"),
            (
                "sim:icode-slix?uid=04A00000000001",
                "uid for icode-slix must be its UID, 16 hex digits (8 bytes, starting E0)"
            ),
            ("sim:ntag424?uid=E0040110A1B2C3D4", "uid for ntag424 must be its UID, 14 hex digits (7 bytes)"),
        ]
        for (spec, message) in cases {
            for arguments in [
                ["inspect", "--reader", spec], ["emulate", "pn532", "--tags", spec],
                ["emulate", "vpcd", "--tags", spec],
            ] {
                let outcome = try ProvisionProcess.run(arguments)
                #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
                #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            }
        }
    }

    /// One `emulate pn532` per chip a PN532 reaches (not ISO 15693), each listed by stock `nfc-list`: the
    /// NFCID1 of a type A tag, the NFCID2 (IDm) of a FeliCa card.
    @Test func emulatePN532PresentsEveryReachableChipsUIDToStockLibnfc() async throws {
        for (chip, uid) in try SimulatedChipUIDs.all() where try SimulationOptions("sim:\(chip)").type5 == nil {
            let (emulator, slave) = try await ChildProvision.pn532(["--tags", Self.spec(chip, uid)])
            try #require(slave.hasPrefix("/tmp/pn532."), "\(chip): \(emulator.stderr)")
            let (status, listed) = try await onThread { try runTool("nfc-list", [], connstring: "pn532_uart:" + slave) }
            #expect(try await emulator.stop() == 0, "\(chip): \(emulator.stderr)")
            let spaced = uid.map { String(format: "%02x", $0) }.joined(separator: "  ")
            #expect(status == 0 && listed.contains(spaced), "\(chip) \(Hex.compact(uid)): \(listed)")
        }
    }

    /// The PN532 control socket's `insert UID` takes the population's form too (a FeliCa IDm).
    @Test func emulatePN532InsertTakesTheIDmOfAFeliCaPopulation() async throws {
        let socket = try Fixtures.temporaryDirectory("pn532-insert").appendingPathComponent("control.sock").path
        let (emulator, slave) = try await ChildProvision.pn532([
            "--tags", "sim:felica-lite-s?count=0", "--control", socket,
        ])
        try #require(slave.hasPrefix("/tmp/pn532."), "\(emulator.stderr)")
        #expect(try controlRequest(socket, "insert 01:27:3D:23:BA:0B:A1:41") == "ok 01273D23BA0BA141")
        let refused = try controlRequest(socket, "insert 04273D23BA0BA1")
        #expect(refused == "error the IDm of these tags is 16 hex digits (8 bytes), got '04273D23BA0BA1'")
        #expect(try await emulator.stop() == 0)
    }

    /// One pcscd with a slot per chip, each served by its own `emulate vpcd` process (ISO 15693 on an ACR1552U
    /// style, the others on an ACR122U); `PCSCReader` polls each slot and reads the UID (a FeliCa card's IDm).
    @Test func emulateVPCDPresentsEveryChipsUIDThroughPcscd() async throws {
        let chips = try SimulatedChipUIDs.all()
        let styles = try chips.map { try SimulationOptions("sim:\($0.chip)").type5 == nil ? "acr122u" : "acr1552u" }
        let daemon = try await PCSCDaemon.start(slots: chips.count) { try PCSCReader.listReaders().count }
        var cards: [ChildProvision] = []
        do {
            for (slot, (chip, uid)) in chips.enumerated() {
                cards.append(
                    try ChildProvision([
                        "emulate", "vpcd", "--port", String(daemon.ports[slot]), "--reader-style", styles[slot],
                        "--tags", Self.spec(chip, uid),
                    ]))
            }
            for (slot, (chip, uid)) in chips.enumerated() {
                let reader = try #require(try await PCSCReader.open("pcsc:#\(slot)?style=\(styles[slot])").first)
                let state = try await reader.poll(timeoutMilliseconds: 5000)
                guard case .tag(let tag) = state else {
                    Issue.record("\(chip): no tag on slot \(slot): \(state); \(cards[slot].stderr)")
                    continue
                }
                #expect(tag.uid == uid, "\(chip): \(Hex.compact(tag.uid)), given \(Hex.compact(uid))")
            }
        } catch {
            print("pcscd log:\n\(daemon.log)")
            for card in cards { _ = try? await card.stop() }
            await daemon.stop()
            throw error
        }
        for card in cards { try await card.stop() }
        await daemon.stop()
    }
}
