import NDEF
import NFCTags
import Provisioning

/// `provision write --append [--replace]`: the tag's existing records, then the new ones.
struct AppendRequest: Sendable {
    /// Whether unreadable or non-NDEF existing content is replaced by the new records alone.
    var replace: Bool

    /// Reads the tag's NDEF message (READ/FAST_READ of the TLV detection found) and returns the combined
    /// message and the original (`[]` for an empty tag or replaced content).
    ///
    /// - Throws: `Type2Error`/`CycleFailure` `.notNDEF` for unreadable or non-NDEF content without
    ///   `replace`; `TransportError` as the reads throw it.
    func combine(_ tag: Type2Tag, status: NDEFStatus, new: [UInt8]) throws -> (message: [UInt8], original: [UInt8]) {
        let original: [UInt8]
        do {
            original = try tag.readNDEF()
        } catch let error as TransportError {
            throw error
        } catch {
            if replace { return (new, []) }
            throw Type2Error(
                .notNDEF,
                "the tag's existing content cannot be read as NDEF (\(error)); --replace writes the new "
                    + "records alone")
        }
        do {
            return (try AppendMessage.combine(original: original, new: new), original)
        } catch {
            if replace { return (new, original) }
            throw error
        }
    }
}
