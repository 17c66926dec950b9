import Crypto
import NDEF
import NFCTags
import Provisioning
import TestSupport
import Testing

/// The identify step's originality check on an NTAG 424 DNA, scripted APDU by APDU: Read_Sig `90 3C` right after
/// GetVersion, AN12196 Table 30's pair valid under NXP's secp224r1 key, and a tag that fails `require` before any
/// SELECT or UPDATE (`docs/reference/type4.md` §2.9).
@Suite struct Type4SignaturePipelineTests {
    private typealias P = Type4PipelineTests
    static let uid = P.hex("04 51 8D FA A9 61 80")
    static let signature = P.hex(
        "D1940D17CFEDA4BFF80359AB975F9F6514313E8F90C1D3CAAF5941AD"
            + "744A1CDF9A83F883CAFE0FE95D1939B1B7E47113993324473B785D21")
    static let activation = DetectedTag(uid: uid, atqa: 0x0344, sak: 0x20, ats: P.hex("06 77 77 71 02 80"))

    /// GetVersion naming `uid`, then Read_Sig answered `answer`.
    static func identify(answer: [UInt8]) -> [ScriptedTransceiver.Step] {
        Array(P.getVersion424.prefix(2)) + [
            .exchange(P.hex("90 AF 00 00 00"), uid + P.hex("CD 65 93 5D 40 21 18 91 00")),
            .exchange(P.hex("90 3C 00 00 01 00 00"), answer),
        ]
    }

    static func run(_ script: ScriptedTransceiver, policy: ManifestSecurity.SignaturePolicy) -> TagPipeline.Outcome {
        let plan = TagPipeline.Plan(
            message: P.message, acceptedChips: [Type4Family.ntag424], lock: false,
            signature: SignatureCheck(policy: policy), uid: uid)
        return TagPipeline.run(plan, on: script, activation: activation, families: P.families())
    }

    @Test func aGenuineSignatureIsValidAndTheTagIsWritten() throws {
        let script = ScriptedTransceiver(
            Self.identify(answer: Self.signature + P.hex("91 00"))
                + P.detection(read: 0x0F, cc: Array(P.cc424.prefix(15))) + P.writeAndVerify)
        let outcome = Self.run(script, policy: .require)
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        #expect(outcome.signature == .valid && outcome.phaseCosts[.identify]?.exchanges == 9)
        P.finished(script)
    }

    @Test func aForgedSignatureFailsRequireBeforeAnythingIsSelectedOrWritten() throws {
        var forged = Self.signature
        forged[40] ^= 0x10
        let script = ScriptedTransceiver(Self.identify(answer: forged + P.hex("91 00")))
        let outcome = Self.run(script, policy: .require)
        let failure = try #require(outcome.failure)
        #expect(failure.failureClass == .signatureInvalid && failure.phase == .identify)
        #expect(!outcome.wroteSomething && script.sent.count == 4)
        P.finished(script)
    }

    @Test func underRecordAForgedSignatureIsKeptAndARefusalIsUnreadable() throws {
        var forged = Self.signature
        forged[0] ^= 0x01
        let invalid = ScriptedTransceiver(
            Self.identify(answer: forged + P.hex("91 00"))
                + P.detection(read: 0x0F, cc: Array(P.cc424.prefix(15))) + P.writeAndVerify)
        let recorded = Self.run(invalid, policy: .record)
        #expect(recorded.failure == nil && recorded.signature == .invalid)
        P.finished(invalid)
        let refused = ScriptedTransceiver(Self.identify(answer: P.hex("91 AE")))
        let outcome = Self.run(refused, policy: .require)
        #expect(outcome.failure?.failureClass == .signatureInvalid && outcome.signature == .unreadable)
        #expect(outcome.failure?.detail.contains("Read_Sig failed") == true, "\(String(describing: outcome.failure))")
    }
}
