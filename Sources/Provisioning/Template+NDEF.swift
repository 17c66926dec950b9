import Foundation
import JSONReader
import NDEF
import NFCTags

extension Template {
    /// Renders the NDEF message for a row; `late` carries the tag's UID and write time.
    ///
    /// With `late == nil` the late-bound values are sized at their maximum (`LateBound.sizing`), which
    /// is what pre-flight uses. A template of the common shapes renders straight into records
    /// (`TemplatePlan`); any other template, and any row the plan declines, goes through the record
    /// JSON path (`renderViaRecordJSON`), which gives the same message or the error.
    ///
    /// - Throws: `JobInputError` (`renderFailed`) naming the template file, line, column and row.
    public func render(row: JobRow, late: LateBound?) throws(JobInputError) -> NDEFMessage {
        if let records = plan?.records(for: self, row: row, late: late) { return NDEFMessage(records: records) }
        return try renderViaRecordJSON(row: row, late: late)
    }

    /// Renders the record JSON text for a row and decodes it with the NDEF codec (`RecordJSON.decode`);
    /// a codec error names the template position of its JSON path.
    func renderViaRecordJSON(row: JobRow, late: LateBound?) throws(JobInputError) -> NDEFMessage {
        let json = try renderRecordJSON(row: row, late: late)
        do {
            return try RecordJSON.decode(Data(json))
        } catch {
            throw JobInputError(
                .renderFailed, file: file, position: position(ofPath: error.path), row: row.row, error.description)
        }
    }

    /// The encoded NDEF message size and the size of its Type 2 TLV area (`NDEFTLV.wrap`: the NDEF TLV
    /// with a 1- or 3-byte length, then the terminator) for a row.
    ///
    /// - Throws: `JobInputError` (`renderFailed`) as `render(row:late:)` does.
    public func encodedSizes(row: JobRow, late: LateBound?) throws(JobInputError) -> (message: Int, tlv: Int) {
        let length = try render(row: row, late: late).length
        // NDEFTLV.wrap: tag, a 1- or 3-byte length, at most FFFEh message bytes, the terminator.
        let body = min(length, 0xFFFE)
        return (length, 1 + (body < 0xFF ? 1 : 3) + body + 1)
    }

    /// A record error that no row can avoid, found by rendering a probe row (every field `X`).
    ///
    /// Keys and structure are fixed in a template; only string values vary. So an error at a path
    /// the template does not have (a missing field) or at a value without placeholders (an unknown
    /// record type) is the template's, reported once with its position instead of once per row.
    public func structuralProblem() -> JobInputError? {
        var fields: [String: String] = [:]
        for case .field(let name) in placeholders.map(\.source) { fields[name] = "X" }
        let json: [UInt8]
        do {
            json = try renderRecordJSON(row: JobRow(row: 1, line: 1, fields: fields), late: nil)
        } catch {
            return nil
        }
        do {
            _ = try RecordJSON.decode(Data(json))
            return nil
        } catch {
            let (node, complete) = resolve(path: error.path)
            guard !complete || !Self.hasPlaceholder(node) else { return nil }
            return JobInputError(.templateInvalid, file: file, position: node.position, error.description)
        }
    }

    /// The template's Type 2 ASCII mirror tokens (`{{uidMirror}}`, `{{counterMirror}}`, `{{uidCounterMirror}}`) with
    /// what each mirrors.
    public var mirrorTokens: [(placeholder: Placeholder, kind: MirrorKind)] {
        placeholders.compactMap { placeholder in
            if case .mirror(let kind) = placeholder.source { return (placeholder, kind) }
            return nil
        }
    }

    /// Where the template's mirror token lands in a row's encoded message (`nil`: no mirror).
    ///
    /// Renders the message twice — placeholder bytes, then a marker — and takes the first differing byte.
    ///
    /// - Throws: `templateInvalid` when the template holds more than one mirror token.
    public func mirrorPlan(row: JobRow, late: LateBound?) throws(JobInputError) -> MirrorPlan? {
        let mirrors = mirrorTokens
        guard let (first, kind) = mirrors.first else { return nil }
        guard mirrors.count == 1 else {
            throw JobInputError(
                .templateInvalid, file: file, position: mirrors[1].placeholder.position,
                "a tag has one mirror; use {{uidCounterMirror}} for both UID and counter")
        }
        var marked = late ?? .sizing
        marked.marksMirror = true
        let plain = try render(row: row, late: late ?? .sizing).bytes
        let offset = try offset(of: first, in: plain, markedBy: marked, row: row, what: "the mirror")
        return MirrorPlan(kind: kind, offsetInMessage: offset, messageLength: plain.count)
    }

    /// Where a window the chip fills lands in the encoded message `plain`: the first byte at which the message
    /// rendered with `marked` (the window as a marker) differs.
    ///
    /// - Throws: `templateInvalid` naming `placeholder` when the marker changes the length or nothing (the window
    ///   is not plain characters of a URI or text).
    func offset(
        of placeholder: Placeholder, in plain: [UInt8], markedBy marked: LateBound, row: JobRow, what: String
    ) throws(JobInputError) -> Int {
        let probe = try render(row: row, late: marked).bytes
        guard plain.count == probe.count,
            let offset = zip(plain, probe).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
        else {
            throw JobInputError(
                .templateInvalid, file: file, position: placeholder.position,
                "\(what) must sit in a URI or text as plain characters")
        }
        return offset
    }
}
