import Foundation
import Ledger
import NDEF
import NFCTags
import TestSupport
import Testing

@testable import Provisioning

/// `MACMirrorVerifier` through `TapService`, as `verify-url` and `serve` use it: an NTAG21x job's tap URLs (a MAC over
/// the UID and a row field, the chip's UID and counter mirror) against a ledger holding one done tag.
@Suite struct MACMirrorVerifierTests {
    static let key = SecretKey(id: "brand", bytes: Array(0x20...0x3F))
    static let uid: [UInt8] = [0x04, 0x21, 0x21, 0x00, 0x00, 0x00, 0x01]
    static let uri = "https://e.io/p/{{sku}}?m={{uidCounterMirror}}&c={{mac:brand:uid,sku}}"

    let template: Template
    let ledger: Ledger

    init() async throws {
        var template = try Template(
            parsing: Array(#"{"records": [{"type": "uri", "uri": "\#(Self.uri)"}]}"#.utf8), file: "t.json", job: "j",
            serial: .init())
        template.keys = ["brand": Self.key]
        self.template = template
        let folder = try Fixtures.temporaryDirectory("mac-mirror")
        ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
        try await ledger.registerJob(name: "j", manifestHash: "m", templateHash: "t")
        let rows = (1...2).map { RowInput(row: $0, fields: ["sku": "SKU-\($0)"], messageSHA256: [], messageLength: 0) }
        _ = try await ledger.addRows(job: "j", rows: rows)
        try await ledger.markKeyedTagDone(job: "j", uid: Self.uid)
    }

    /// The service over the job, with `window` and `reveals` as given.
    func service(window: Int = 1000, reveals: Bool = false) throws -> TapService {
        let verifier = try MACMirrorVerifier(
            job: "j", template: template, keys: ["brand": Self.key], counterWindow: window, revealsUnknownUIDs: reveals)
        return TapService(jobs: [TapServiceJob(verifier: verifier, ledger: ledger, publicFields: ["sku"])])
    }

    /// The URL a tag `uid` of row 1 gives at `counter` (the chip fills the mirror window).
    func tap(uid: [UInt8] = Self.uid, counter: Int) throws -> String {
        let row = JobRow(row: 1, line: 2, fields: ["sku": "SKU-1"])
        let message = try template.render(row: row, late: LateBound(uid: uid, timestamp: Date()))
        let url = try #require(message.records.first?.wellKnownTypeURIPayload()?.absoluteString)
        let window = Hex.compact(uid) + "x" + String(format: "%06X", counter)
        return url.replacingOccurrences(of: "00000000000000x000000", with: window)
    }

    @Test func aTapIsValidOnceThenReplayedAndAJumpBeyondTheWindowIsSuspiciousAndNotStored() async throws {
        let service = try service(window: 10)
        let valid = try await service.verify(url: try tap(counter: 3))
        #expect(valid.verdict.kind == .valid && valid.job == "j" && valid.product == ["sku": "SKU-1"], "\(valid)")
        #expect(valid.verdict.uid == Self.uid && valid.verdict.counter == 3 && valid.verdict.row == 1)
        let again = try await service.verify(url: try tap(counter: 3))
        #expect(again.verdict.kind == .replayed && again.verdict.previousCounter == 3 && again.product == valid.product)
        let jump = try await service.verify(url: try tap(counter: 14))
        #expect(jump.verdict.kind == .suspicious && jump.verdict.counter == 14 && jump.job == "j", "\(jump)")
        #expect(jump.verdict.previousCounter == 3 && jump.product == ["sku": "SKU-1"])
        #expect(try await ledger.lastSeenCounter(job: "j", uid: Self.uid) == 3, "a suspicious counter is not stored")
        #expect(try await service.verify(url: try tap(counter: 13)).verdict.kind == .valid)
    }

    @Test func concurrentChecksOfOneTapAnswerValidExactlyOnce() async throws {
        let service = try service()
        let url = try tap(counter: 5)
        let kinds = try await withThrowingTaskGroup(of: TapJobVerdict.Kind.self) { group in
            for _ in 0..<8 { group.addTask { try await service.verify(url: url).verdict.kind } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(kinds.filter { $0 == .valid }.count == 1 && kinds.filter { $0 == .replayed }.count == 7, "\(kinds)")
    }

    @Test func anInvalidAnswerNamesNothingAndIsTheSameForABadMACAUIDOutsideTheJobAndAChangedValue() async throws {
        let service = try service()
        let url = try tap(counter: 1)
        let badMAC = String(url.dropLast()) + (url.last == "0" ? "1" : "0")
        let stranger = try tap(uid: [0x04, 0x21, 0x21, 0x00, 0x00, 0x00, 0x99], counter: 1)
        let otherSKU = url.replacingOccurrences(of: "/p/SKU-1?", with: "/p/SKU-2?")
        var details: Set<String> = []
        for forged in [badMAC, stranger, otherSKU] {
            let answer = try await service.verify(url: forged)
            #expect(answer.verdict.kind == .invalid && answer.job == nil && answer.product.isEmpty, "\(answer)")
            #expect(answer.verdict.uid == nil && answer.verdict.counter == nil && answer.verdict.row == nil)
            details.insert(answer.verdict.detail)
        }
        #expect(details == [MACMirrorVerifier.notVerified])
        let explained = try await service.verify(url: otherSKU).verdict.explanation
        #expect(explained?.contains("'sku' is not row 1's") == true, "for --operator only: \(explained ?? "none")")
        #expect(try await ledger.lastSeenCounter(job: "j", uid: Self.uid) == nil, "nothing stored")
        let operatorView = try await self.service(reveals: true).verify(url: stranger).verdict
        #expect(operatorView.kind == .unknown && operatorView.detail.contains("04212100000099"))
        #expect(try await service.verify(url: "https://e.io/p/SKU-1").verdict.kind == .invalid)
    }

    @Test func aTemplateWithoutAMACOrUIDOrAKeyNotLoadedIsRefused() throws {
        func refusal(_ uri: String, keys: [String: SecretKey] = ["brand": Self.key]) -> MACMirrorSetupError? {
            let text = #"{"records": [{"type": "uri", "uri": "\#(uri)"}]}"#
            guard let body = try? Template(parsing: Array(text.utf8), file: "t.json", job: "j", serial: .init()) else {
                return nil
            }
            do {
                _ = try MACMirrorVerifier(job: "j", template: body, keys: keys)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal("https://e.io/p/{{sku}}") == .noMAC(job: "j"))
        #expect(refusal("https://e.io/p?m={{counterMirror}}&c={{mac:brand:sku}}") == .noUID)
        #expect(refusal(Self.uri, keys: [:]) == .keyNotLoaded("brand"))
        #expect(refusal(Self.uri) == nil)
    }
}
