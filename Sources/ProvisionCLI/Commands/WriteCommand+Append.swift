import NDEF
import NFCTags
import Provisioning

/// `provision write --append [--replace]`: the tag's existing records, then the new ones.
struct AppendRequest: Sendable {
    /// Whether unreadable or non-NDEF existing content is replaced by the new records alone.
    var replace: Bool

    /// The combined message and the original (`[]` for an empty tag or replaced content), from what the
    /// pipeline's read step found.
    ///
    /// - Throws: `CycleFailure` `.notNDEF` for unreadable or non-NDEF content without `replace`, the read's
    ///   own failure for a transport class, and `AppendMessage`'s error for records that cannot combine.
    func combine(
        _ reading: Result<TagPipeline.Reading, CycleFailure>, new: [UInt8]
    ) throws -> (message: [UInt8], original: [UInt8]) {
        let original: [UInt8]
        switch reading {
        case .success(let found):
            original = found.message
        case .failure(let failure) where failure.failureClass == .notNDEF || failure.failureClass == .transport:
            if replace { return (new, []) }
            throw CycleFailure(
                .notNDEF, phase: .identify,
                "the tag's existing content cannot be read as NDEF (\(failure.detail)); --replace writes the new "
                    + "records alone")
        case .failure(let failure):
            throw failure
        }
        do {
            return (try AppendMessage.combine(original: original, new: new), original)
        } catch {
            if replace { return (new, original) }
            throw error
        }
    }
}
