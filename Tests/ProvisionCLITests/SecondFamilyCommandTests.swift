import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

@testable import ProvisionCLI

/// `write`, `lock` and `inspect` on a second, in-memory tag family: the commands' tag work goes through
/// the family seam alone.
@Suite struct SecondFamilyCommandTests {
    static let families = TagFamilies([MemoryFamily(), Type2Family()])
    static let uid: [UInt8] = [0x02, 0x4D, 0x45, 0x4D, 0x00, 0x01, 0x02]
    static var detected: DetectedTag { DetectedTag(uid: uid, atqa: 0x0044, sak: MemoryFamily.sak) }

    @Test func writeLockThenInspectAMemoryTag() async throws {
        let tag = MemoryTag(uid: Self.uid)
        let message = NDEFMessage(records: [NDEFPayload.uri("https://example.com/mem")]).bytes
        let written = WriteCommand.perform(
            RecordingTransceiver(MemoryTransceiver(tag)), detected: Self.detected, message: message, lock: false,
            families: Self.families)
        #expect(written.failure == nil, "\(String(describing: written.failure))")
        #expect(tag.message == message && !tag.isLocked)
        #expect(written.chip == MemoryFamily.chip)

        let locked = LockCommand.perform(
            RecordingTransceiver(MemoryTransceiver(tag)), detected: Self.detected, families: Self.families)
        #expect(locked.failure == nil, "\(String(describing: locked.failure))")
        #expect(tag.isLocked)

        let reader = MemoryTagReader(tags: [tag])
        guard case .tag(let detected) = try await reader.poll(timeoutMilliseconds: 0) else {
            Issue.record("the memory tag was not presented")
            return
        }
        let report = try await InspectCommand.inspect(
            detected, on: reader, dump: false, protectionKey: nil, families: Self.families)
        #expect(report.family == "memory")
        #expect(report.chip.model == "mem256" && report.chip.name == "MEM-256")
        #expect(report.ndef.status == "readOnly" && report.ndef.messageHex == Hex.string(message))
        #expect(report.ndef.records.first?.summary.contains("https://example.com/mem") == true)
    }
}
