import Foundation
import Ledger
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

@testable import Provisioning

/// `TapJobVerifier` with the SUN scheme: a keyed NTAG 424 DNA job's tap URLs, made by the emulated chip, checked
/// with the job's keys against its ledger (valid, replayed, invalid, unknown), and the URL layout read from the job's
/// template.
@Suite struct TapJobVerifierTests {
    @Test(arguments: NTAG424JobOptions.MACInput.allCases)
    func aTapIsValidOnceThenReplayedAndTheNextTapIsValid(macInput: NTAG424JobOptions.MACInput) async throws {
        let job = try await SUNJobFixture(macInput: macInput)
        try await job.markDone()
        let tag = try job.tag()
        let verifier = try job.verifier()
        #expect(
            verifier.layout as? SUNURLLayout
                == SUNURLLayout(picc: "p", mac: "m", macInput: macInput == .empty ? .empty : .picc))
        let first = try tag.tap()
        #expect(first.hasPrefix("https://e.io/t/SKU-1?p="), "\(first)")
        let valid = try await verifier.verify(url: first, ledger: job.ledger)
        #expect(valid.kind == .valid, "\(valid.detail)")
        #expect(valid.uid == SUNJobFixture.uid && valid.counter == 1 && valid.row == 1)
        #expect(valid.previousCounter == nil && valid.keyVersions == [1, 1, 1, 1, 0])
        let again = try await verifier.verify(url: first, ledger: job.ledger)
        #expect(again.kind == .replayed && again.previousCounter == 1, "\(again.detail)")
        let second = try tag.tap()
        #expect(second != first)
        let next = try await verifier.verify(url: second, ledger: job.ledger)
        #expect(next.kind == .valid && next.counter == 2 && next.previousCounter == 1, "\(next.detail)")
        #expect(try await job.ledger.highestSUNCounter(job: job.folder.job, uid: SUNJobFixture.uid) == 2)
    }

    /// Pinned taps of row 1 on UID `04424D00000001` (master `10…1F`, system identifier `sun-tests`, PICC padding
    /// `A5…`), recomputed outside this code base (AN10922, AES-CBC and CMAC as `docs/reference/type4.md` §3.3–§3.5 and
    /// §4.2 give them): the chip makes each URL, and the verifier reads UID and counter back from it.
    @Test(arguments: [
        (NTAG424JobOptions.MACInput.picc, UInt32(1), "p=3E009E6A29B49E70809DF60E7537450D&m=9541863D3AFC6775"),
        (.picc, 2, "p=1550B5689B994A5243B1B5618A110CE5&m=A9061E542832AEE6"),
        (.empty, 1, "p=3E009E6A29B49E70809DF60E7537450D&m=89043289B241CF14"),
        (.empty, 2, "p=1550B5689B994A5243B1B5618A110CE5&m=93EB24FEDF2FDC68"),
    ])
    func pinnedTapsBothWays(macInput: NTAG424JobOptions.MACInput, counter: UInt32, query: String) async throws {
        let job = try await SUNJobFixture(macInput: macInput)
        try await job.markDone()
        let tag = try job.tag()
        tag.emulator.random = { _, count in [UInt8](repeating: 0xA5, count: count) }
        try tag.emulator.setSDMReadCounter(counter - 1, ofFile: 2)
        let url = "https://e.io/t/SKU-1?" + query
        #expect(try tag.tap() == url)
        let verdict = try await job.verifier().verify(url: url, ledger: job.ledger)
        #expect(verdict.kind == .valid && verdict.uid == SUNJobFixture.uid && verdict.counter == counter)
    }

    @Test func aTamperedMACOrPICCDataIsInvalidAndRecordsNothing() async throws {
        let job = try await SUNJobFixture()
        try await job.markDone()
        let url = try job.tag().tap()
        let verifier = try job.verifier()
        let last = try #require(url.last)
        let badMAC = try await verifier.verify(
            url: String(url.dropLast()) + (last == "0" ? "1" : "0"), ledger: job.ledger)
        #expect(badMAC.kind == .invalid && badMAC.detail == TapVerification.notVerified("SUN"), "\(badMAC.detail)")
        // Nothing it decrypted (issue 44 item 4, finding 5): no UID, counter or row; only the operator's line has them.
        #expect(badMAC.row == nil && badMAC.keyVersions == nil && badMAC.uid == nil && badMAC.counter == nil)
        #expect(badMAC.explanation?.contains(Hex.compact(SUNJobFixture.uid)) == true, "\(badMAC)")
        let picc = try #require(url.range(of: "?p=")).upperBound
        let flipped = url.replacingCharacters(in: picc..<url.index(after: picc), with: url[picc] == "0" ? "1" : "0")
        let undecrypted = try await verifier.verify(url: flipped, ledger: job.ledger)
        #expect(undecrypted.kind == .invalid && undecrypted.detail == badMAC.detail, "one answer, no oracle")
        #expect(try await verifier.verify(url: "https://e.io/t/SKU-1", ledger: job.ledger).kind == .invalid)
        #expect(try await job.ledger.highestSUNCounter(job: job.folder.job, uid: SUNJobFixture.uid) == nil)
        #expect(try await verifier.verify(url: url, ledger: job.ledger).kind == .valid, "the genuine URL still is")
    }

    @Test func aTagOfAnotherMasterKeyIsInvalid() async throws {
        let job = try await SUNJobFixture()
        try await job.markDone()
        let other = SecretKey(id: "brand", bytes: Array(0x20...0x2F))
        let url = try job.tag(master: other).tap()
        #expect(try await job.verifier().verify(url: url, ledger: job.ledger).kind == .invalid)
        // With the other master key the same URL is genuine (K1 and K2 both come from it).
        #expect(try await job.verifier(master: other).verify(url: url, ledger: job.ledger).kind == .valid)
    }

    @Test func aGenuineTagWithoutADoneRowIsUnknownAndItsCounterIsNotRecorded() async throws {
        let job = try await SUNJobFixture()
        let stranger: [UInt8] = [0x04, 0x42, 0x4D, 0x00, 0x00, 0x00, 0x99]
        let verdict = try await job.verifier().verify(url: try job.tag(uid: stranger).tap(), ledger: job.ledger)
        #expect(verdict.kind == .unknown && verdict.uid == stranger && verdict.counter == 1, "\(verdict.detail)")
        #expect(verdict.detail.contains("not a tag of job t") && verdict.row == nil)
        #expect(try await job.ledger.highestSUNCounter(job: job.folder.job, uid: stranger) == nil)
    }

    @Test(arguments: [
        ("https://e.io/{{sun.picc}}/{{sun.mac}}", "must be the value of a query parameter"),
        ("https://e.io/?u={{sun.uid}}&c={{sun.counter}}&m={{sun.mac}}", "this template has {{sun.uid}}"),
        ("https://e.io/t/{{sku}}", "this template has no SUN token"),
        ("https://e.io/?p={{sun.picc}}&p={{sun.mac}}", "must be another query parameter"),
    ])
    func aTemplateWhoseSUNIsNotTwoQueryParametersIsRefused(uri: String, message: String) async throws {
        let job = try await SUNJobFixture(uri: uri)
        let error = try #require(throws: JobInputError.self) {
            try job.tapLayout()
        }
        #expect(error.code == .templateInvalid && error.description.contains(message), "\(error)")
    }
}
