import Foundation
import Provisioning
import TestSupport
import Testing

private let root = Fixtures.repositoryRoot

private let productTemplate = """
    {"records": [
      {"type": "uri", "uri": "https://example.com/p/{{sku}}/{{serial}}?u={{uid}}"},
      {"type": "text", "text": "{{name}}", "lang": "en"}
    ]}
    """

/// Writes a job (manifest, template, rows) into a fresh folder and returns the manifest URL.
private func job(csv: String, extra: String = "", tag: String = "ntag213") throws -> URL {
    let folder = try Fixtures.temporaryDirectory("preflight")
    try Data(productTemplate.utf8).write(to: folder.appendingPathComponent("t.json"))
    try Data(csv.utf8).write(to: folder.appendingPathComponent("rows.csv"))
    let manifest = #"{"job": "p", "template": "t.json", "records": "rows.csv", "tag": "\#(tag)"\#(extra)}"#
    let url = folder.appendingPathComponent("job.json")
    try Data(manifest.utf8).write(to: url)
    return url
}

@Test func sampleBatchPassesWithTheDocumentedSummary() throws {
    let summary = try PreFlight.run(manifestAt: root.appendingPathComponent("jobs/batch.json"), currentDirectory: root)
    #expect(summary.isValid)
    #expect(summary.problems.isEmpty)
    #expect(summary.job == "batch")
    #expect(summary.tag.rawValue == "ntag215")
    #expect(summary.rows == 200)
    #expect(summary.validRows == 200)
    #expect(summary.capacity == 492)
    #expect(summary.messageBytesMin == 86)
    #expect(summary.messageBytesMax == 99)
    #expect((summary.messageBytesMean * 10).rounded() == 891)
    #expect(summary.headroom == 393)
    #expect(summary.tlvBytesMax == 102)
    #expect(summary.hasLateBoundValues)
    // 400 unique values, no repeat: the filter flags none, so no value is held and one pass suffices.
    #expect(summary.uniqueValuesTracked == 0)
}

@Test func sampleInlineJobPasses() throws {
    let summary = try PreFlight.run(
        manifestAt: root.appendingPathComponent("jobs/event-badges.json"), currentDirectory: root)
    #expect(summary.isValid)
    #expect(summary.rows == 4)
    #expect(summary.tag.rawValue == "ntag215")
    #expect(summary.messageBytesMin == 255)
    #expect(summary.messageBytesMax == 273)
    #expect(summary.messageBytesMean == 261)
    // From 255 bytes on the NDEF TLV needs the 3-byte length form: 1 + 3 + 273 + 1 (terminator).
    #expect(summary.tlvBytesMax == 278)
}

@Test func tooLargeRowIsReportedWithItsRowNumber() throws {
    let long = String(repeating: "n", count: 100)
    let url = try job(csv: "sku,name\nA,short\nB,\(long)\nC,short\n")
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let summary = try PreFlight.run(manifestAt: url, currentDirectory: url.deletingLastPathComponent())
    #expect(!summary.isValid)
    #expect(summary.rows == 3)
    #expect(summary.validRows == 2)
    #expect(
        summary.problems.map(\.description) == [
            "rows.csv:3:1: row 2: NDEF message is 146 bytes; NTAG213 holds 137 (9 over)"
        ])
    #expect(summary.problems.first?.row == 2)
    #expect(summary.messageBytesMax == 146)
    #expect(summary.headroom == -9)
}

@Test func everyProblemIsCountedButTheListIsCapped() throws {
    var csv = "sku,name\n"
    for index in 1...150 { csv += "S\(index)\n" }
    let url = try job(csv: csv)
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let manifest = try Manifest.load(from: url, currentDirectory: url.deletingLastPathComponent())
    let summary = try PreFlight.run(manifest, problemLimit: 10)
    #expect(summary.problemCount == 150)
    #expect(summary.problems.count == 10)
    #expect(summary.problems.map(\.row) == Array(1...10))
}

@Test func uniqueRepeatsNameTheEarlierRow() throws {
    let url = try job(csv: "sku,name\nA,x\nB,y\nA,z\nB,w\n", extra: #", "unique": ["sku"]"#)
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let summary = try PreFlight.run(manifestAt: url, currentDirectory: url.deletingLastPathComponent())
    #expect(
        summary.problems.map(\.description) == [
            "rows.csv:4:1: row 3: sku 'A' repeats row 1 (listed in unique)",
            "rows.csv:5:1: row 4: sku 'B' repeats row 2 (listed in unique)",
        ])
    #expect(summary.uniqueValuesTracked == 2)
}

@Test func uniqueRepeatsAreExactAmongManyRowsAndCompareBytes() throws {
    // "é" precomposed and decomposed are equal Swift strings but different bytes: not a repeat.
    var csv = "sku,name\nA-\u{E9},x\nA-e\u{301},x\n"
    for index in 1...20_000 { csv += "S\(index),n\n" }
    csv += "S777,again\nS20000,last\n"
    let url = try job(csv: csv, extra: #", "unique": ["sku", "name"]"#, tag: "ntag216")
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let manifest = try Manifest.load(from: url, currentDirectory: url.deletingLastPathComponent())
    let summary = try PreFlight.run(manifest, problemLimit: 3)
    #expect(summary.rows == 20_004)
    #expect(summary.problemCount == 20_002)
    #expect(
        summary.problems.map(\.description) == [
            "rows.csv:3:1: row 2: name 'x' repeats row 1 (listed in unique)",
            "rows.csv:5:1: row 4: name 'n' repeats row 3 (listed in unique)",
            "rows.csv:6:1: row 5: name 'n' repeats row 3 (listed in unique)",
        ])
    #expect(summary.validRows == 2)
    // Only candidate values are held in the exact pass: far fewer than the 20,004 distinct skus.
    #expect(summary.uniqueValuesTracked < 100)
}

@Test(.timeLimit(.minutes(3)))
func largeGeneratedCSVStreamsThroughAFixedBuffer() async throws {
    let rowCount = 100_000
    let folder = try Fixtures.temporaryDirectory("preflight-large")
    defer { try? FileManager.default.removeItem(at: folder) }
    let csvURL = folder.appendingPathComponent("rows.csv")
    try Data("sku,name\n".utf8).write(to: csvURL)
    let handle = try FileHandle(forWritingTo: csvURL)
    try handle.seekToEnd()
    var block = ""
    for index in 1...rowCount {
        block += "SKU-\(index),\"Part \(index), grade A\"\n"
        if index % 10_000 == 0 {
            try handle.write(contentsOf: Data(block.utf8))
            block = ""
        }
    }
    try handle.close()
    try Data(productTemplate.utf8).write(to: folder.appendingPathComponent("t.json"))
    let manifestURL = folder.appendingPathComponent("job.json")
    try Data(#"{"job": "big", "template": "t.json", "records": "rows.csv", "tag": "ntag216"}"#.utf8).write(
        to: manifestURL)
    let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: csvURL.path)[.size] as? Int)
    #expect(fileSize > 3_000_000)

    let manifest = try Manifest.load(from: manifestURL, currentDirectory: folder)
    // Seconds of CPU work: run it on its own thread, not on the cooperative pool other tests need.
    let result = await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<PreFlightSummary, JobInputError>, Never>) in
        Thread.detachNewThread {
            continuation.resume(
                returning: Result { () throws(JobInputError) in try PreFlight.run(manifest, chunkSize: 64 * 1024) })
        }
    }
    let summary = try result.get()
    #expect(summary.isValid)
    #expect(summary.rows == rowCount)
    #expect(summary.validRows == rowCount)
    // The reader never held more than one 64 KiB chunk plus a partial record of the file at once,
    // and nothing else grows with the row count (no unique names, no problems).
    #expect(summary.peakBufferedBytes <= 64 * 1024 + 128)
    #expect(summary.uniqueValuesTracked == 0)
    #expect(summary.problems.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports").path))
}
