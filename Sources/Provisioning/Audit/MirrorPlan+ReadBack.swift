import NFCTags

/// The mirror window in a message read back from a tag.
extension MirrorPlan {
    /// Where the window sits in the NDEF message written from page 4 (the inverse of
    /// `init(kind:offsetInMessage:messageLength:)`), `nil` when it lies outside `messageLength` bytes.
    public func windowInMessage(messageLength: Int) -> Range<Int>? {
        let offset = page * 4 + byte - 16 - (messageLength < 0xFF ? 2 : 4)
        guard offset >= 0, offset + kind.length <= messageLength else { return nil }
        return offset..<(offset + kind.length)
    }

    /// The message as the run wrote it: the window of `read` (the chip's mirrored ASCII) put back to
    /// the placeholder bytes, so its SHA-256 can be compared with the ledger's. Fails, saying what the
    /// window shows, when it does not show `uid` (and six upper-case hex counter digits) as `kind` does.
    public func restoringPlaceholder(in read: [UInt8], uid: [UInt8]) -> Result<[UInt8], MirrorWindowError> {
        guard let window = windowInMessage(messageLength: read.count) else {
            return .failure(MirrorWindowError(shown: "", page: page))
        }
        let shown = String(decoding: read[window], as: UTF8.self)
        guard kind.isMirrored(shown, uid: uid) else {
            return .failure(MirrorWindowError(shown: shown, page: page))
        }
        var restored = read
        restored.replaceSubrange(window, with: Array(kind.placeholder(marked: false).utf8))
        return .success(restored)
    }
}

/// The mirror window of a read-back message does not show what the chip mirrors.
public struct MirrorWindowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The window's characters as read (empty when the message is too short to hold it).
    public var shown: String
    /// MIRROR_PAGE.
    public var page: Int

    public var description: String {
        shown.isEmpty
            ? "the message is too short to hold the mirror window at page \(page)"
            : "the mirror window at page \(page) reads '\(shown)', not the tag's mirrored UID/counter"
    }
}
