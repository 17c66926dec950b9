import NDEF
import NFCTags
import Provisioning
import Testing

private let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]

@Suite struct MirrorPlanReadBackTests {
    @Test(arguments: [(10, 40), (200, 254), (300, 400)])
    func windowIsTheInverseOfThePlan(offset: Int, length: Int) {
        for kind in [MirrorKind.uid, .counter, .uidAndCounter] {
            let plan = MirrorPlan(kind: kind, offsetInMessage: offset, messageLength: length)
            #expect(plan.windowInMessage(messageLength: length) == offset..<(offset + kind.length))
        }
    }

    @Test func windowBeyondTheMessageIsNil() {
        let plan = MirrorPlan(kind: .uid, offsetInMessage: 30, messageLength: 40)
        #expect(plan.windowInMessage(messageLength: 43) == nil)
        let short = plan.restoringPlaceholder(in: Array(repeating: 0x30, count: 43), uid: uid)
        guard case .failure(let error) = short else {
            Issue.record("a too-short message was accepted")
            return
        }
        #expect(error.description.contains("too short"))
    }

    @Test func mirroredUIDAndCounterAreRestoredToThePlaceholder() throws {
        let prefix = Array("ab?m=".utf8)
        let plan = MirrorPlan(kind: .uidAndCounter, offsetInMessage: prefix.count, messageLength: prefix.count + 21)
        let read = prefix + Array("04112233445566x00002A".utf8)
        let restored = try plan.restoringPlaceholder(in: read, uid: uid).get()
        #expect(restored == prefix + Array("00000000000000x000000".utf8))
    }

    @Test(arguments: ["04112233445577x00002A", "04112233445566x00002a", "00000000000000x000000"])
    func anotherUIDOrALowerCaseCounterIsNamed(shown: String) {
        let plan = MirrorPlan(kind: .uidAndCounter, offsetInMessage: 0, messageLength: 21)
        guard case .failure(let error) = plan.restoringPlaceholder(in: Array(shown.utf8), uid: uid) else {
            Issue.record("'\(shown)' was taken for the mirror of \(Hex.compact(uid))")
            return
        }
        #expect(error.description.contains("reads '\(shown)'") && error.description.contains("page 4"))
    }
}
