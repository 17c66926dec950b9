import Foundation
import Provisioning
import Reports
import TestSupport
import Testing

/// `JSONPrecision`: rounded numbers print without float noise, and `summary.json` uses it for every figure.
@Suite struct JSONPrecisionTests {
    static let precisions: [JSONPrecision] = [.seconds, .milliseconds, .microseconds, .ratio, .percent, .mean, .rate]

    /// The decimals each `summary.json` key may carry; every other number must be whole.
    static let summaryDecimals = [
        "p50_ms": 3, "p95_ms": 3, "max_ms": 3, "measured_ms_per_tag": 3, "airtime_ms_per_tag": 3,
        "tags_per_hour": 1, "first_pass_yield": 4, "measured_over_airtime": 4, "exchanges_per_tag": 2,
    ]

    private func encoded(_ value: Double) throws -> String {
        String(decoding: try JSONEncoder().encode([value]), as: UTF8.self)
    }

    @Test func roundingRemovesFloatNoise() throws {
        #expect(try encoded(0.1 + 0.2) == "[0.30000000000000004]")
        #expect(try encoded((0.1 + 0.2).rounded(.milliseconds)) == "[0.3]")
        #expect(try encoded(12.345678901234.rounded(.milliseconds)) == "[12.346]")
        #expect(try encoded(12.345678901234.rounded(.seconds)) == "[12.345679]")
        #expect(try encoded(0.99949.rounded(.ratio)) == "[0.9995]")
        #expect(try encoded(719.04999.rounded(.rate)) == "[719]")
    }

    @Test func everyPrecisionPrintsAtMostItsDecimals() throws {
        var generator = SeededGenerator(seed: 27)
        for _ in 0..<2_000 {
            let magnitude = Double.random(in: -7...10, using: &generator)
            let value = Double.random(in: -1...1, using: &generator) * pow(10, magnitude)
            for precision in Self.precisions {
                let text = try encoded(value.rounded(precision))
                let numbers = JSONNumbers(text).numbers
                #expect(numbers.count == 1)
                for number in numbers where number.decimalPlaces > precision.fractionDigits {
                    Issue.record("\(value) to \(precision.fractionDigits) decimals printed as \(number.text)")
                }
            }
        }
    }

    @Test func signsLimitsAndNonFiniteValues() throws {
        #expect(try encoded((-0.0001).rounded(.milliseconds)) == "[0]")
        #expect((-2.0006).rounded(.milliseconds) == -2.001)
        #expect(1e300.rounded(.seconds) == 1e300)
        #expect(Double.infinity.rounded(.ratio) == .infinity)
        #expect(Double.nan.rounded(.ratio).isNaN)
        #expect(Optional<Double>.none.rounded(.ratio) == nil)
        #expect(Optional(1.23456).rounded(.percent) == 1.23)
    }

    @Test func theScannerKeepsLiteralsAndTheirKeys() {
        let text = #"{"a": 1.50, "s": "x: 9.99, \"q\": 7", "l": [4, 5.25e-1], "o": {"b": -1e-06}, "t": true}"#
        let numbers = JSONNumbers(text).numbers
        #expect(numbers.map(\.description) == ["a: 1.50", "l: 4", "l: 5.25e-1", "b: -1e-06"])
        #expect(numbers.map(\.decimalPlaces) == [1, 0, 3, 6])
        #expect(JSONNumbers("[2.5E+2, 0.30000000000000004]").numbers.map(\.decimalPlaces) == [0, 17])
        #expect(JSONNumbers(text).excess(["a": 1, "l": 3, "b": 6]).isEmpty)
        #expect(JSONNumbers(text).excess(["a": 1, "l": 2, "b": 6]).map(\.text) == ["5.25e-1"])
    }

    @Test func summaryJSONNumbersCarryTheirPrecision() throws {
        let report = SampleReports.line()
        let figures = RunFigures(report)
        // The raw figures are noisy, so this test fails when a writer skips the rounding.
        #expect(JSONNumbers("[\(figures.tagsPerHour), \(figures.measuredPerTagMilliseconds)]").excess([:]).count == 2)
        let numbers = JSONNumbers(RunReportWriter.json(report, figures))
        #expect(numbers.excess(Self.summaryDecimals).isEmpty, "\(numbers.excess(Self.summaryDecimals))")
        let keys = Set(numbers.numbers.compactMap(\.key))
        #expect(keys.isSuperset(of: Self.summaryDecimals.keys))
        #expect(numbers.numbers.contains { $0.key == "p95_ms" && $0.decimalPlaces > 0 })
    }

    @Test func summaryFileWrittenToTheReportsFolderIsRoundedToo() throws {
        let folder = try Fixtures.temporaryDirectory("json-precision")
        defer { try? FileManager.default.removeItem(at: folder) }
        try RunReportWriter.write(SampleReports.line(), to: folder)
        let text = try String(contentsOf: folder.appendingPathComponent("summary.json"), encoding: .utf8)
        #expect(JSONNumbers(text).excess(Self.summaryDecimals).isEmpty)
    }
}
