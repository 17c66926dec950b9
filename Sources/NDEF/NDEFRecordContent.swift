/// What a record means, decoded from its TNF, type and payload.
///
/// `NDEFPayload.content()` produces it; `NDEFPayload(content:)` turns it back into a record.
public enum NDEFRecordContent: Sendable, Hashable {
    /// TNF 0.
    case empty
    /// Well-known "U": the full URI with its prefix expanded.
    case uri(String)
    /// Well-known "T".
    case text(NDEFText)
    /// Well-known "Sp".
    case smartPoster(NDEFSmartPoster)
    /// Any other well-known type, kept as raw bytes.
    case wellKnown(type: String, payload: [UInt8])
    /// TNF 2: a media type and its payload.
    case mime(type: String, payload: [UInt8])
    /// TNF 3: the URI held in the TYPE field, and the payload (usually empty).
    case absoluteURI(String, payload: [UInt8])
    /// TNF 4: the external type name (`domain:type`) and its payload.
    case external(name: String, payload: [UInt8])
    /// TNF 5.
    case unknown(payload: [UInt8])
}

extension NDEFPayload {
    /// The deepest Smart Poster nesting the decoder follows.
    static let maximumNesting = 4

    /// Decodes what this record means, checking its type and payload strictly.
    ///
    /// - Throws: `NDEFError` with offsets relative to the record's TYPE field (type errors) or PAYLOAD
    ///   field (payload errors). TNF 6 and 7 records are reported as `unchangedOutsideChunk` and
    ///   `reservedTNF`.
    public func content() throws(NDEFError) -> NDEFRecordContent {
        try content(typeOffset: 0, payloadOffset: 0, depth: 0)
    }

    /// Decodes the content, reporting errors at the given absolute field offsets.
    func content(typeOffset: Int, payloadOffset: Int, depth: Int) throws(NDEFError) -> NDEFRecordContent {
        try checkFieldShape(typeOffset: typeOffset)
        switch typeNameFormat {
        case .empty:
            return .empty
        case .nfcWellKnown:
            do {
                try NDEFTypeSyntax.checkWellKnownType(type)
            } catch {
                throw error.shifted(by: typeOffset)
            }
            return try wellKnownContent(payloadOffset: payloadOffset, depth: depth)
        case .media:
            do {
                try NDEFTypeSyntax.checkMediaType(type)
            } catch {
                throw error.shifted(by: typeOffset)
            }
            return .mime(type: String(decoding: type, as: UTF8.self), payload: payload)
        case .absoluteURI:
            do {
                try NDEFTypeSyntax.checkAbsoluteURI(type)
            } catch {
                throw error.shifted(by: typeOffset)
            }
            return .absoluteURI(String(decoding: type, as: UTF8.self), payload: payload)
        case .nfcExternal:
            do {
                try NDEFTypeSyntax.checkExternalType(type)
            } catch {
                throw error.shifted(by: typeOffset)
            }
            return .external(name: String(decoding: type, as: UTF8.self), payload: payload)
        case .unknown:
            return .unknown(payload: payload)
        case .unchanged:
            throw NDEFError(.unchangedOutsideChunk, at: typeOffset, "TNF 6 (unchanged) outside a chunked record")
        case .reserved:
            throw NDEFError(.reservedTNF, at: typeOffset, "TNF 7 is reserved")
        }
    }

    /// Checks what the TNF demands of the TYPE, ID and PAYLOAD lengths (NDEF 1.0 §3.2.6).
    private func checkFieldShape(typeOffset: Int) throws(NDEFError) {
        if type.count > 255 || identifier.count > 255 {
            throw NDEFError(.fieldTooLong, at: typeOffset, "TYPE and ID hold at most 255 bytes")
        }
        switch typeNameFormat {
        case .empty:
            guard type.isEmpty, identifier.isEmpty, payload.isEmpty else {
                throw NDEFError(
                    .emptyRecordNotEmpty, at: typeOffset, "an empty record (TNF 0) has a type, ID or payload")
            }
        case .nfcWellKnown, .media, .absoluteURI, .nfcExternal:
            guard !type.isEmpty else {
                throw NDEFError(.missingType, at: typeOffset, "TNF \(typeNameFormat.rawValue) needs a type")
            }
        case .unknown:
            guard type.isEmpty else {
                throw NDEFError(.unknownWithType, at: typeOffset, "an unknown record (TNF 5) has a type")
            }
        case .unchanged, .reserved:
            break
        }
    }

    private func wellKnownContent(payloadOffset: Int, depth: Int) throws(NDEFError) -> NDEFRecordContent {
        let name = String(decoding: type, as: UTF8.self)
        do throws(NDEFError) {
            switch name {
            case "U":
                return .uri(try URIPrefix.uri(fromPayload: payload))
            case "T":
                return .text(try NDEFText(payload: payload))
            case "Sp":
                guard depth < Self.maximumNesting else {
                    throw NDEFError(.nestingTooDeep, at: 0, "Smart Posters nested too deeply")
                }
                return .smartPoster(try NDEFSmartPoster(payload: payload, depth: depth + 1))
            default:
                return .wellKnown(type: name, payload: payload)
            }
        } catch {
            throw error.shifted(by: payloadOffset)
        }
    }
}
