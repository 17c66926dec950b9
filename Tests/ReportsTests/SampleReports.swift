import Foundation
import FoundationXML
import NDEF
import Provisioning
import Reports

/// Deterministic report fixtures and an XML inspector shared by the Reports tests.
enum SampleReports {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A realistic line run.
    ///
    /// Two readers, 420 rows, about 35 minutes with a six-minute pause, a few percent of failures in
    /// several classes, modelled airtime. Same bytes every time (a fixed LCG).
    static func line() -> RunReport {
        var seed: UInt64 = 0x5EED
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let readers = ["pn532:/dev/ttyUSB0", "acr122u:ACS ACR122U PICC Interface 00 00"]
        var attempts: [RunReport.AttemptLine] = []
        var tags: [RunReport.TagLine] = []
        var clocks = [0.0, 3.5]
        var row = 1
        var uidCounter = 0x0004_A1B2_C3D4_0000
        let failureMix: [(FailureClass, Double, Phase, String)] = [
            (.tagLost, 0.025, .write, "tag left the field after page 9"),
            (.timeout, 0.012, .verify, "no answer to READ 30h page 4 after 3 retries"),
            (.nak, 0.008, .write, "NAK 5 (EEPROM write error) at page 12"),
            (.verifyMismatch, 0.005, .verify, "page 7 expected 6F 72 67 2F found 00 00 00 00"),
            (.duplicateUID, 0.006, .identify, "UID already done as row 17"),
            (.wrongChip, 0.004, .identify, "GET_VERSION 00 04 04 02 01 00 0F 03: NTAG213, job expects NTAG215"),
        ]
        while row <= 420 {
            let reader = clocks[0] <= clocks[1] ? 0 : 1
            var now = clocks[reader]
            if now > 1080 && now < 1440 { now = 1440 + random() * 20 }  // six-minute pause (reel change)
            let detect = 4000 + random() * 5000
            let removal = 350 + random() * 500
            let identify = 7 + random() * 4
            let write = 36 + random() * 14
            let verify = 7 + random() * 3
            let lock = 10 + random() * 4
            let ledger = 2 + random() * 3
            uidCounter += 1 + Int(random() * 3)
            let uid = String(uidCounter, radix: 16, uppercase: true).leftPadded(to: 14)
            var failure: (FailureClass, Double, Phase, String)?
            var pick = random()
            for entry in failureMix {
                if pick < entry.1 {
                    failure = entry
                    break
                }
                pick -= entry.1
            }
            let work = identify + write + verify + lock + ledger
            now += (detect + work + removal) / 1000
            clocks[reader] = now
            let time = start.addingTimeInterval(now)
            var phases: [Phase: Double] = [
                .detect: detect * 1000, .identify: identify * 1000, .write: write * 1000, .verify: verify * 1000,
                .lock: lock * 1000, .ledger: ledger * 1000, .removal: removal * 1000,
            ]
            if let failure {
                let claimed = failure.0 == .duplicateUID || failure.0 == .wrongChip ? nil : row
                if failure.0 == .duplicateUID || failure.0 == .wrongChip { phases = [.detect: detect * 1000] }
                attempts.append(
                    .init(
                        uid: uid, row: claimed, reader: readers[reader], failure: failure.0, detail: failure.3,
                        phase: failure.2, time: time, phaseMicroseconds: phases, exchanges: 9,
                        airtimeMicroseconds: nil))
                continue
            }
            attempts.append(
                .init(
                    uid: uid, row: row, reader: readers[reader], failure: nil, detail: "", phase: .ledger, time: time,
                    phaseMicroseconds: phases, exchanges: 23, airtimeMicroseconds: 52_000 + random() * 6_000))
            tags.append(
                .init(
                    uid: uid, row: row, serial: "MUS-2026-" + String(row).leftPadded(to: 5),
                    messageSHA256:
                        String(repeating: String(row % 16, radix: 16), count: 64), locked: true, time: time,
                    reader: readers[reader]))
            row += 1
        }
        let end = attempts.map(\.time).max() ?? start
        return RunReport(
            job: "museum-labels-2026", manifestSHA256: "9f2c" + String(repeating: "a1", count: 30),
            templateSHA256: "4be1" + String(repeating: "07", count: 30), readers: readers, startedAt: start,
            finishedAt: end, rows: .init(total: 450, done: 420, failed: 0, pending: 30), tags: tags,
            attempts: attempts)
    }

    /// `line()` run by two stations: its first reader on station `line-a`, its second on `line-b`.
    static func stations() -> RunReport {
        var report = line()
        let names = Dictionary(
            uniqueKeysWithValues: zip(report.readers, ["line-a/", "line-b/"]).map { ($0, $1 + $0) })
        report.readers = report.readers.map { names[$0] ?? $0 }
        report.tags = report.tags.map { tag in
            var copy = tag
            copy.reader = names[tag.reader] ?? tag.reader
            return copy
        }
        report.attempts = report.attempts.map { attempt in
            var copy = attempt
            copy.reader = names[attempt.reader] ?? attempt.reader
            return copy
        }
        return report
    }

    /// The message of the audit's passing tag `index`: its tap URL.
    static func auditMessage(_ index: Int) -> [UInt8] {
        NDEFMessage(records: [.uri("https://example.com/t/\(index)?c=0000\(index)")]).bytes
    }

    /// A small audit with every status and a hostile detail; passes hold a URI, the unlocked tag an
    /// empty message, the first mismatch bytes that do not decode, the unknown tag nothing read.
    static func audit() -> AuditReport {
        let statuses: [AuditStatus] = [.pass, .pass, .mismatch, .pass, .unknown, .unlocked, .pass, .mismatch, .pass]
        let findings = statuses.enumerated().map { index, status in
            let message: [UInt8]? =
                switch status {
                case .unknown: nil
                case .unlocked: []
                case .mismatch: index == 2 ? [0xD1, 0x01] : auditMessage(index)
                default: auditMessage(index)
                }
            return AuditReport.Finding(
                uid: "04A1B2C3D4" + String(index, radix: 16, uppercase: true).leftPadded(to: 4),
                row: status == .unknown ? nil : index + 1, status: status,
                detail: status == .mismatch ? "page 7 <script>alert(\"x\")</script> & more" : "",
                time: start.addingTimeInterval(Double(index) * 2.5), message: message)
        }
        return AuditReport(job: "museum-labels-2026", when: start, readers: ["sim:ntag215"], findings: findings)
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(width - count, 0)) + self }
}

/// Parses XML with Foundation's `XMLParser` and keeps every element's name and attributes in order.
final class XMLInspector: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
    }

    private(set) var elements: [Element] = []
    private(set) var error: String?
    private var open: [Int] = []

    /// Parses `text`; `nil` error means well-formed.
    static func parse(_ text: String) -> XMLInspector {
        let inspector = XMLInspector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = inspector
        if !parser.parse() {
            inspector.error = inspector.error ?? parser.parserError.map { "\($0)" } ?? "parse failed"
        }
        return inspector
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        open.append(elements.count)
        elements.append(Element(name: elementName, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        _ = open.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        for index in open { elements[index].text += string }  // text content, as in the DOM
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { error = "\(parseError)" }

    /// Elements called `name` whose `class` attribute is `className` (any class when `nil`).
    func elements(_ name: String, class className: String? = nil) -> [Element] {
        elements.filter { $0.name == name && (className == nil || $0.attributes["class"] == className) }
    }
}

extension XMLInspector.Element {
    /// A numeric attribute (0 when absent or not a number).
    func number(_ name: String) -> Double { attributes[name].flatMap(Double.init) ?? 0 }
}
