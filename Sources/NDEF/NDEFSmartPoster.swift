/// The content of a well-known Smart Poster record ("Sp"): a URI with optional titles and hints.
///
/// NFC Forum Smart Poster RTD 1.0 §3. The payload is itself an NDEF message holding exactly one URI
/// record ("U"), any number of Text records ("T", at most one per language), and at most one each of
/// the local records action ("act", 1 byte), size ("s", 4 bytes big-endian) and type ("t", a media
/// type in UTF-8). Other records (icons, …) are kept in `otherRecords`.
///
/// The encoder writes U, the titles, act, s, t, then `otherRecords`, in that order.
public struct NDEFSmartPoster: Sendable, Hashable {
    /// The recommended action (`act` record).
    public enum Action: UInt8, Sendable, Hashable, CaseIterable {
        /// `00`: do the action (open the URI, send the SMS, …).
        case exec = 0
        /// `01`: save for later.
        case save = 1
        /// `02`: open for editing.
        case edit = 2

        /// The record JSON spelling: `exec`, `save`, `edit`.
        public var name: String {
            switch self {
            case .exec: "exec"
            case .save: "save"
            case .edit: "edit"
            }
        }
    }

    /// The URI (the single U record).
    public var uri: String
    /// Titles, at most one per language.
    public var titles: [NDEFText]
    /// The recommended action, if any.
    public var action: Action?
    /// The size of the referenced content in bytes, if given.
    public var size: UInt32?
    /// The media type of the referenced content, if given.
    public var mediaType: String?
    /// Records the Smart Poster carries that this type does not model (icons, for example).
    public var otherRecords: [NDEFPayload]

    /// Creates a Smart Poster value.
    public init(
        uri: String, titles: [NDEFText] = [], action: Action? = nil, size: UInt32? = nil, mediaType: String? = nil,
        otherRecords: [NDEFPayload] = []
    ) {
        self.uri = uri
        self.titles = titles
        self.action = action
        self.size = size
        self.mediaType = mediaType
        self.otherRecords = otherRecords
    }

    /// The nested records in encoding order.
    ///
    /// - Throws: `invalidLanguage` for a bad title language, `invalidMediaType` for a bad type.
    public func records() throws(NDEFError) -> [NDEFPayload] {
        var records = [NDEFPayload.uri(uri)]
        for title in titles {
            records.append(NDEFPayload(format: .nfcWellKnown, type: Array("T".utf8), payload: try title.payload()))
        }
        if let action {
            records.append(NDEFPayload(format: .nfcWellKnown, type: Array("act".utf8), payload: [action.rawValue]))
        }
        if let size {
            let bytes = [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
            records.append(NDEFPayload(format: .nfcWellKnown, type: Array("s".utf8), payload: bytes))
        }
        if let mediaType {
            try NDEFTypeSyntax.checkMediaType(Array(mediaType.utf8))
            records.append(NDEFPayload(format: .nfcWellKnown, type: Array("t".utf8), payload: Array(mediaType.utf8)))
        }
        return records + otherRecords
    }

    /// The Smart Poster record payload (an encoded NDEF message).
    public func payload() throws(NDEFError) -> [UInt8] {
        NDEFMessage(records: try records()).bytes
    }

    /// Decodes a Smart Poster payload; offsets in errors are relative to the payload's first byte.
    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payload: payload, depth: 1)
    }

    init(payload: [UInt8], depth: Int) throws(NDEFError) {
        let decoded = try NDEFMessage.decodeRecords(payload, depth: depth)
        var uris: [(String, Int)] = []
        var titles: [NDEFText] = []
        var action: Action?
        var size: UInt32?
        var mediaType: String?
        var others: [NDEFPayload] = []
        for item in decoded {
            let record = item.record
            guard record.typeNameFormat == .nfcWellKnown, let name = record.typeString else {
                others.append(record)
                continue
            }
            let at = item.payloadOffset
            switch name {
            case "U":
                uris.append((try URIPrefix.uri(fromPayload: record.payload), item.typeOffset))
            case "T":
                let title = try NDEFText(payload: record.payload)
                if titles.contains(where: { $0.languageCode.lowercased() == title.languageCode.lowercased() }) {
                    throw NDEFError(
                        .duplicateTitleLanguage, at: at, "two Smart Poster titles in language \(title.languageCode)")
                }
                titles.append(title)
            case "act":
                guard action == nil else { throw NDEFError(.duplicateSmartPosterField, at: at, "two action records") }
                guard record.payload.count == 1, let value = Action(rawValue: record.payload[0]) else {
                    throw NDEFError(.invalidSmartPosterAction, at: at, "the action record must be one byte 00–02")
                }
                action = value
            case "s":
                guard size == nil else { throw NDEFError(.duplicateSmartPosterField, at: at, "two size records") }
                guard record.payload.count == 4 else {
                    throw NDEFError(.invalidSmartPosterSize, at: at, "the size record must be 4 bytes")
                }
                size = record.payload.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            case "t":
                guard mediaType == nil else { throw NDEFError(.duplicateSmartPosterField, at: at, "two type records") }
                do {
                    try NDEFTypeSyntax.checkMediaType(record.payload)
                } catch {
                    throw error.shifted(by: at)
                }
                mediaType = String(decoding: record.payload, as: UTF8.self)
            default:
                others.append(record)
            }
        }
        guard uris.count == 1, let uri = uris.first else {
            let at = uris.count > 1 ? uris[1].1 : 0
            throw NDEFError(
                .smartPosterURICount, at: at, "a Smart Poster needs exactly one URI record, found \(uris.count)")
        }
        self.init(uri: uri.0, titles: titles, action: action, size: size, mediaType: mediaType, otherRecords: others)
    }
}
