import Foundation
import Ledger
import NFCTags
import Provisioning
import TestSupport
import Testing

private let cwd = URL(fileURLWithPath: "/work/line")
private let manifestURL = URL(fileURLWithPath: "/work/line/jobs/x.json")

private func parse(_ text: String) throws(JobInputError) -> Manifest {
    try Manifest(parsing: Array(text.utf8), manifestURL: manifestURL, currentDirectory: cwd)
}

@Test func minimalManifestGetsDefaults() throws {
    let manifest = try parse(#"{"job": "b-1", "template": "../t/p.json", "records": "rows.csv", "tag": "ntag215"}"#)
    #expect(manifest.job == "b-1")
    #expect(manifest.templateURL.path == "/work/line/t/p.json")
    guard case .csv(let url) = manifest.records else {
        Issue.record("not csv")
        return
    }
    #expect(url.path == "/work/line/jobs/rows.csv")
    #expect(manifest.tag.rawValue == "ntag215")
    #expect(manifest.lock == .none)
    #expect(manifest.retries == 2)
    #expect(manifest.onFailure == .reuse)
    #expect(manifest.unique.isEmpty)
    #expect(manifest.serial == SerialNumbering(start: 1, step: 1, width: 0, prefix: ""))
    #expect(manifest.readers.isEmpty)
    #expect(manifest.ledger.fileURL?.path == "/work/line/reports/b-1/ledger.sqlite")
    #expect(manifest.reportsURL.path == "/work/line/reports/b-1")
    #expect(manifest.file == "jobs/x.json")
}

@Test func everyFieldDecodes() throws {
    let manifest = try parse(
        """
        {"job": "j", "template": "/abs/t.json", "records": "r.ndjson", "tag": "ultralight-ev1", "lock": "permanent",
         "retries": 0, "onFailure": "burn", "unique": ["sku", "serial"],
         "serial": {"start": 7, "step": 5, "width": 4, "prefix": "X-"},
         "readers": ["sim:ntag215?timing=instant", "pcsc:#1"], "ledger": "db/l.sqlite", "reports": "/tmp/rep"}
        """)
    #expect(manifest.templateURL.path == "/abs/t.json")
    guard case .jsonLines(let url) = manifest.records else {
        Issue.record("not jsonl")
        return
    }
    #expect(url.path == "/work/line/jobs/r.ndjson")
    #expect(manifest.tag.rawValue == "ultralight-ev1")
    #expect(manifest.lock == .permanent)
    #expect(manifest.retries == 0)
    #expect(manifest.onFailure == .burn)
    #expect(manifest.unique == ["sku", "serial"])
    #expect(manifest.serial == SerialNumbering(start: 7, step: 5, width: 4, prefix: "X-"))
    #expect(manifest.readers.map(\.text) == ["sim:ntag215?timing=instant", "pcsc:#1"])
    #expect(manifest.readers.first?.option("timing") == "instant")
    #expect(manifest.ledger.fileURL?.path == "/work/line/jobs/db/l.sqlite")
    #expect(manifest.reportsURL.path == "/tmp/rep")
}

@Test func inlineRecordsBecomeRowsWithManifestLines() throws {
    let manifest = try parse(
        """
        {"job": "j", "template": "t.json", "tag": "type2",
         "records": [
           {"a": "x", "n": 3},
           {"a": "y", "b": false}
         ]}
        """)
    guard case .inline(let rows) = manifest.records else {
        Issue.record("not inline")
        return
    }
    #expect(
        rows == [
            JobRow(row: 1, line: 3, fields: ["a": "x", "n": "3"]),
            JobRow(row: 2, line: 4, fields: ["a": "y", "b": "false"]),
        ])
}

@Test func serialNumbering() {
    let serial = SerialNumbering(start: 98, step: 2, width: 4, prefix: "S")
    #expect(serial.value(forRow: 1) == "S0098")
    #expect(serial.value(forRow: 2) == "S0100")
    #expect(serial.value(forRow: 10_000) == "S20096")
    #expect(SerialNumbering(start: Int.max, step: 1).value(forRow: 2) == nil)
}

@Test func tagCapacitiesFollowTheFactoryLayout() throws {
    func capacity(_ name: String) -> Int? { TagTarget(manifestName: name)?.capacity }
    #expect(capacity("ntag213") == 137 && capacity("ntag215") == 492 && capacity("ntag216") == 868)
    #expect(capacity("type2") == 137 && capacity("ultralight-ev1") == 46 && capacity("mf0ul21") == 126)
    let ev1 = try #require(TagTarget(rawValue: "ultralight-ev1"))
    #expect(ev1.rawValue == "ultralight-ev1" && ev1.acceptedChips == [.mf0ul11, .mf0ul21])
}

@Test(arguments: [
    (
        #"{"job": "j", "template": "t", "records": "r.csv", "tag": "ntag213", "sig": "require"}"#,
        "jobs/x.json:1:69: sig: unknown key (expected one of: job, template, records, tag, lock, retries, "
            + "onFailure, unique, serial, readers, ledger, reports, keys, signature, protect, identityCheck, mode, "
            + "type4, ntag424, format, public, publish)"
    ),
    (
        #"{"job": "j", "template": "t", "records": "r.csv", "tag": "ntag213", "protect": {}}"#,
        "jobs/x.json:1:80: protect.key: missing"
    ),
    (
        #"{"job": "j", "template": "", "records": "r.csv", "tag": "ntag213"}"#,
        "jobs/x.json:1:26: template: must not be empty"
    ),
    (
        #"{"job": "..", "template": "t", "records": "r.csv", "tag": "ntag213"}"#,
        "jobs/x.json:1:9: job: '..' is not a job name"
    ),
    (#"{"job": "j", "template": "t", "records": "r.csv"}"#, "jobs/x.json:1:1: tag: missing"),
    (
        #"{"job": "j", "template": "t", "records": "r.csv", "tag": "ntag213", "unique": "sku"}"#,
        "jobs/x.json:1:79: unique: must be an array of names, found a string"
    ),
    (
        #"{"job": "j", "template": "t", "records": "r.csv", "tag": "ntag213", "serial": {"prefix": 1}}"#,
        "jobs/x.json:1:90: serial.prefix: must be a string, found a number"
    ),
])
func manifestErrorsNamePathAndPosition(_ text: String, _ message: String) {
    do {
        _ = try parse(text)
        Issue.record("no error")
    } catch {
        #expect(error.description == message)
    }
}

@Test func loadingAMissingManifestIsFileMissing() {
    do {
        _ = try Manifest.load(from: URL(fileURLWithPath: "/work/line/jobs/none.json"), currentDirectory: cwd)
        Issue.record("no error")
    } catch {
        #expect(error.code == .fileMissing)
        #expect(error.description == "jobs/none.json: no such file")
    }
}

@Test func aLedgerConnectionStringNamesAServerAndOneWithAPasswordIsRefusedWithoutShowingIt() throws {
    let manifest = try parse(
        #"{"job": "j", "template": "t", "records": "r.csv", "tag": "ntag213", "ledger": "postgresql://db.line/prov"}"#)
    #expect(manifest.ledger == .server(try PostgresConnInfo("postgresql://db.line/prov")))
    #expect(manifest.ledger.fileURL == nil)
    let keyValue = try parse(
        #"{"job": "j", "template": "t", "records": "r.csv", "tag": "ntag213", "ledger": "host=db dbname=p"}"#)
    #expect(keyValue.ledger.description == "host=db dbname=p")
    do {
        _ = try parse(
            #"{"job": "j", "template": "t", "records": "r.csv", "tag": "ntag213", "ledger": "postgresql://u:pw9@db/p"}"#
        )
        Issue.record("no error")
    } catch {
        #expect(error.description.hasPrefix("jobs/x.json:1:79: ledger: "), "\(error)")
        #expect(error.description.contains("password") && !error.description.contains("pw9"), "\(error)")
    }
}
