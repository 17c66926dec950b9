import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

/// `provision inspect` on a Type 4 tag: ATS, GetVersion, CC with its proprietary file, NLEN and the message,
/// from one scripted NTAG 424 DNA.
@Suite struct Type4FamilyTagInspectionTests {
    private typealias V = Type4Vectors
    private let finished = Type4ChipModelTests.finished
    private let message = V.hex("D1 01 04 55 04 61 2E 62")
    /// A Read_Sig answer (any 56 bytes: the CLI judges it, not the family).
    private let signature = (0..<56).map { UInt8($0) }

    private func inspected(dump: Bool = false, extra: [ScriptedTransceiver.Step] = []) throws
        -> (TagInspection, ScriptedTransceiver)
    {
        let script = ScriptedTransceiver(
            V.getVersion424 + [.exchange(V.hex("90 3C 00 00 01 00 00"), signature + V.hex("91 00"))]
                + V.detection424(nlen: [0, 8], whole: true)
                + [.exchange(V.hex("00 B0 00 02 08"), message + V.ok)] + extra)
        let tag = Type4FamilyTag(
            Type4Tag(transceiver: script), activation: DetectedTag(uid: V.uid424, sak: 0x20, ats: V.ats424))
        let inspector = try #require(tag.inspection)
        return (try inspector.inspect(anticollisionUID: V.uid424, dump: dump, password: nil), script)
    }

    @Test func identityMessageAndCost() throws {
        let (result, script) = try inspected()
        #expect(result.identity.chip == Type4Family.ntag424 && result.identity.vendor == 0x04)
        #expect(result.identity.version?.count == 28 && result.anomalies.isEmpty)
        #expect(result.status == .readWrite && result.capacity == 254)
        #expect(result.messageLength == 8 && result.message == message && result.ndefError == nil)
        #expect(result.identifyCost.exchanges == 3 && result.cost.exchanges == 7)
        finished(script)
    }

    @Test func anNTAG424ShowsItsReadSigAnswerForItsOwnKey() throws {
        let (result, _) = try inspected()
        #expect(result.signature == signature && result.signatureKeys == [.ntag424] && result.signatureError == nil)
    }

    @Test func theChipSectionDecodesTheATSAndGetVersion() throws {
        let section = try #require(try inspected().0.protection as? Type4ChipSection)
        #expect(section.ats == "06 77 77 71 02 80" && section.frameSize == 128 && section.fwi == 7)
        #expect(section.sfgi == 1 && section.cidSupported == true && section.nadSupported == false)
        #expect(section.historicalBytes == "80" && section.tb1 == "71")
        #expect(section.hardware?.vendor == "04" && section.hardware?.storage == "256 < size < 512 bytes")
        #expect(section.software?.version == "01.02")
        #expect(section.versionUID == "04 96 8C AA 5C 5E 80" && section.week == "21" && section.year == "18")
        let text = section.lines.map(\.text).joined(separator: "\n")
        #expect(text.contains("FWI 7 (FWT 38.66 ms), SFGI 1 (SFGT 604 µs)"))
    }

    @Test func theFileSectionShowsTheCCInWordsAndNLEN() throws {
        let section = try #require(try inspected().0.locks as? Type4FileSection)
        #expect(section.version == "2.0" && section.mle == 256 && section.mlc == 255 && section.nlen == 8)
        #expect(section.ndefFile.file == "E104" && section.ndefFile.size == 256)
        #expect(section.ndefFile.readAccess == "00h (granted)" && section.ndefFile.writeAccess == "00h (granted)")
        #expect(section.proprietaryFiles.map(\.file) == ["E105"])
        #expect(section.proprietaryFiles.first?.writeAccess == "83h (proprietary procedure)")
        #expect(
            section.lines.contains {
                $0.text == "proprietary file E105, 128 bytes, read 82h (proprietary procedure), "
                    + "write 83h (proprietary procedure)"
            })
    }

    @Test func aDumpReadsTheRestOfTheNDEFFile() throws {
        let rest = [UInt8](repeating: 0, count: 246)
        let (result, script) = try inspected(
            dump: true, extra: [.exchange(V.hex("00 B0 00 0A F6"), rest + V.ok)])
        let dump = try #require(result.dump)
        #expect(dump.count == 16 && dump[0] == [0, 8] + message + [0, 0, 0, 0, 0, 0])
        finished(script)
    }

    @Test func aRefusedReadSigIsNotedAndTheInspectionGoesOn() throws {
        let script = ScriptedTransceiver(
            V.getVersion424 + [.exchange(V.hex("90 3C 00 00 01 00 00"), V.hex("91 0B"))]
                + V.detection424(nlen: [0, 0], whole: true))
        let tag = Type4FamilyTag(Type4Tag(transceiver: script))
        let result = try tag.inspect(anticollisionUID: V.uid424, dump: false, password: nil)
        #expect(result.signature == nil && result.signatureKeys == [.ntag424])
        #expect(result.signatureError == "Read_Sig refused: unexpectedStatus: status 910B (INS 3C)")
        #expect(result.status == .readWrite && result.messageLength == 0)
        finished(script)
    }

    @Test func aGenericTagWithoutATSSaysSo() throws {
        let script = ScriptedTransceiver(
            V.getVersionRefused + [
                .exchange(V.selectApplication, V.hex("6A 82")),
                .exchange(V.hex("00 A4 04 00 07 D2 76 00 00 85 01 00"), V.hex("6A 82")),
            ])
        let tag = Type4FamilyTag(Type4Tag(transceiver: script))
        let result = try tag.inspect(anticollisionUID: [], dump: false, password: nil)
        #expect(
            result.identity.chip == Type4Family.generic && result.identity.genericReason == "GetVersion refused (6E00)")
        #expect(result.status == .notSupported && result.locks == nil)
        #expect(result.signature == nil && result.signatureKeys.isEmpty, "a generic T4T has no Read_Sig")
        let section = try #require(result.protection as? Type4ChipSection)
        #expect(section.lines.map(\.text) == ["not reported by the reader"])
        finished(script)
    }
}

/// The inspection sections' JSON (`inspect --json`): the keys the CLI prints for a Type 4 tag.
@Suite struct Type4InspectionSectionsTests {
    private typealias V = Type4Vectors

    @Test func theFileSectionEncodesItsFieldsByName() throws {
        let cc = try Type4CapabilityContainer(V.ccFile424)
        let json = String(decoding: try JSONEncoder().encode(Type4FileSection(cc, nlen: 0)), as: UTF8.self)
        for key in ["\"mle\":256", "\"mlc\":255", "\"nlen\":0", "\"file\":\"E105\"", "\"version\":\"2.0\""] {
            #expect(json.contains(key), "\(json)")
        }
    }

    @Test func aMalformedATSIsShownAsReceived() {
        let section = Type4ChipSection(ats: V.hex("05 70"), version: nil)
        #expect(section.ats == "05 70" && section.fsci == nil)
        #expect(section.lines.map(\.text) == ["05 70 (not a well-formed ATS)"])
    }
}
