import Foundation
import JSONReader
import NDEF

/// Checks a whole job before any tag is touched: manifest, template, every row rendered and encoded.
///
/// Rows stream through one at a time and none is kept: memory holds one chunk of the row file, the
/// running size statistics, the first `problemLimit` problems and, for `unique` names only, a
/// fixed-size filter plus the few values it flags (`UniqueIndex`; when it flags any, the rows are read
/// a second time). Pre-flight creates no file.
public enum PreFlight {
    /// Runs pre-flight for the manifest at `url`.
    ///
    /// - Returns: the summary; `isValid` is false when any row has a problem.
    /// - Throws: `JobInputError` when the manifest, the template or the row file's header cannot be used.
    public static func run(
        manifestAt url: URL, currentDirectory: URL, problemLimit: Int = 100
    ) throws(JobInputError) -> PreFlightSummary {
        let manifest = try Manifest.load(from: url, currentDirectory: currentDirectory)
        return try run(manifest, problemLimit: problemLimit)
    }

    /// Runs pre-flight for a loaded manifest.
    public static func run(_ manifest: Manifest, problemLimit: Int = 100, chunkSize: Int = 64 * 1024)
        throws(JobInputError) -> PreFlightSummary
    {
        let template = try Template.load(for: manifest)
        if let problem = template.structuralProblem() { throw problem }
        let reader = try manifest.openRows(chunkSize: chunkSize)
        if let columns = reader.columns {
            try template.check(columns: columns, dataFile: reader.file)
            for (index, name) in manifest.unique.enumerated()
            where !columns.contains(name) && !Template.builtinNames.contains(name) {
                throw JobInputError(
                    .manifestInvalid, file: manifest.file,
                    "unique[\(index)]: '\(name)' is neither a column of \(reader.file) "
                        + "nor a built-in (serial, row, job)"
                )
            }
        }
        var unique = UniqueIndex(names: manifest.unique)
        var summary = try scan(
            reader, template: template, manifest: manifest, unique: &unique, problemLimit: problemLimit)
        if unique.needsExactPass {
            // Pass two: the filter saw possible repeats; read the rows again and compare those values exactly.
            unique.beginExactPass()
            summary = try scan(
                try manifest.openRows(chunkSize: chunkSize), template: template, manifest: manifest, unique: &unique,
                problemLimit: problemLimit)
        }
        summary.uniqueValuesTracked = unique.count
        return summary
    }

    /// Reads every row once and checks it; duplicates are reported only in the index's exact pass.
    private static func scan(
        _ reader: any RowReading, template: Template, manifest: Manifest, unique: inout UniqueIndex, problemLimit: Int
    ) throws(JobInputError) -> PreFlightSummary {
        var summary = PreFlightSummary(job: manifest.job, tag: manifest.tag, capacity: manifest.capacity)
        summary.hasLateBoundValues = template.hasLateBoundValues
        var total = 0
        var problems: [JobInputError] = []
        func report(_ problem: JobInputError) {
            summary.problemCount += 1
            if summary.problems.count < problemLimit { summary.problems.append(problem) }
        }
        while true {
            let row: JobRow
            do {
                guard let next = try reader.next() else { break }
                row = next
            } catch {
                summary.rows += 1
                report(error)
                if reader.isFinished { break }
                continue
            }
            summary.rows += 1
            problems.removeAll(keepingCapacity: true)
            check(
                row, template: template, manifest: manifest, file: reader.file, unique: &unique, total: &total,
                summary: &summary, problems: &problems)
            if problems.isEmpty { summary.validRows += 1 }
            for problem in problems { report(problem) }
        }
        if summary.rows == 0 {
            report(JobInputError(.recordInvalid, file: reader.file, "the job has no rows"))
        }
        if summary.validRows > 0 { summary.messageBytesMean = Double(total) / Double(summary.validRows) }
        summary.peakBufferedBytes = reader.peakBufferedBytes
        return summary
    }

    /// Checks one row: unique values, rendering, encoding, capacity and (a keyed chip) the offsets of its dynamic
    /// message the chip must accept and a tap URL the verifier can read; appends what is wrong to `problems`.
    private static func check(
        _ row: JobRow, template: Template, manifest: Manifest, file: String, unique: inout UniqueIndex,
        total: inout Int,
        summary: inout PreFlightSummary, problems: inout [JobInputError]
    ) {
        let at = TextPosition(line: row.line, column: 1)
        for (index, name) in unique.names.enumerated() {
            guard let value = template.value(source: unique.sources[index], row: row) else {
                problems.append(
                    JobInputError(
                        .recordInvalid, file: file, position: at, row: row.row,
                        "no field '\(name)' (listed in unique)"))
                continue
            }
            if let earlier = unique.insert(value, nameIndex: index, row: row.row) {
                problems.append(
                    JobInputError(
                        .duplicateValue, file: file, position: at, row: row.row,
                        "\(name) '\(value)' repeats row \(earlier) (listed in unique)"))
            }
        }
        let encoded: (message: Int, tlv: Int)
        do {
            // `{{uid}}` is sized per family: 16 hex digits for a Type 5 UID, else 14 (`late: nil`).
            encoded = try template.encodedSizes(
                row: row, late: summary.tag.uidLength == 8 ? LateBound.sizingType5 : nil)
        } catch {
            problems.append(error)
            return
        }
        if encoded.message > summary.capacity {
            problems.append(
                JobInputError(
                    .capacityExceeded, file: file, position: at, row: row.row,
                    "NDEF message is \(encoded.message) bytes; \(summary.tag.displayName) holds \(summary.capacity) "
                        + "(\(encoded.message - summary.capacity) over)"))
        }
        if template.hasDynamicMessage {
            do {
                _ = try template.dynamicLayout(row: row, late: nil, manifest: manifest)
            } catch {
                problems.append(error)
            }
            if let scheme = manifest.dynamicMessage, let options = manifest.dynamicMessageOptions,
                let layout = try? template.tapLayout(scheme: scheme, options: options),
                let problem = template.tapURLProblem(row: row, layout: layout, file: file)
            {
                problems.append(problem)
            }
        }
        if summary.messageBytesMax == 0 { summary.messageBytesMin = encoded.message }
        summary.messageBytesMin = min(summary.messageBytesMin, encoded.message)
        summary.messageBytesMax = max(summary.messageBytesMax, encoded.message)
        summary.tlvBytesMax = max(summary.tlvBytesMax, encoded.tlv)
        if problems.isEmpty { total += encoded.message }
    }
}
