import NDEF
import NFCTags

extension Template {
    /// Why this row's tap URL could never verify, or `nil`: a field value that changes the URL's query (an `&`, a
    /// `?`) moves or repeats the parameters the verifier reads (`TapURLQuery`), and a `#` starts a fragment the
    /// browser never sends, so the tag would be written and counted done, then every tap of it answered `invalid`.
    ///
    /// Each of the template's dynamic tokens is rendered marked in turn; the tap layout must find its window in the
    /// row's URI exactly where the template put it (`TapLayout.masked` of the marked URI is the URI as written).
    /// The problem names the data file, the row's line and the field whose value breaks the query.
    func tapURLProblem(row: JobRow, layout: any TapLayout, file: String) -> JobInputError? {
        func uris(_ late: LateBound) -> [String]? {
            guard let message = try? render(row: row, late: late) else { return nil }
            return message.records.map { record in
                if case .uri(let uri) = try? record.content() { uri } else { "" }
            }
        }
        guard let written = uris(.sizing) else { return nil }  // a render problem is reported on its own
        for (_, token) in dynamicTokens {
            var late = LateBound.sizing
            late.markedDynamic = token
            guard let marked = uris(late), marked.count == written.count else { continue }
            for (uri, plain) in zip(marked, written) where uri != plain {
                // A browser never sends the fragment, so a field's '#' cuts the URL the verifier gets.
                let breaking = fields(in: plain, row: row).first { value in
                    value.1.contains("#") || (layout.masked(uri) != plain && value.1.contains { "&?".contains($0) })
                }
                guard breaking != nil || layout.masked(uri) != plain else { continue }
                let what =
                    breaking.map { "\($0.0): '\($0.1)' puts '&', '#' or '?' into the tap URL" }
                    ?? "the rendered tap URL"
                return JobInputError(
                    .recordInvalid, file: file, position: TextPosition(line: row.line, column: 1), row: row.row,
                    "\(what), which moves, repeats or cuts the query parameters of \(token.written): a tap of this "
                        + "tag could never verify; percent-encode the value (%26, %23, %3F)")
            }
        }
        return nil
    }

    /// The row's field values that appear in `uri`, with their names, in template order.
    private func fields(in uri: String, row: JobRow) -> [(String, String)] {
        placeholders.compactMap { placeholder in
            guard case .field(let name) = placeholder.source, let value = row.fields[name], !value.isEmpty,
                uri.contains(value)
            else { return nil }
            return (name, value)
        }
    }
}
