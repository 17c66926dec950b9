import Foundation
import TestSupport
import Testing

@testable import Ledger

@Suite struct LedgerTimeTests {
    /// Known instants, both ways.
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_800_000_000.125, "2027-01-15T08:00:00.125Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (1_709_251_199.999, "2024-02-29T23:59:59.999Z"),
        (-1.0, "1969-12-31T23:59:59.000Z"),
        (253_402_300_799.0, "9999-12-31T23:59:59.000Z"),
    ])
    func vectors(seconds: Double, text: String) throws {
        #expect(LedgerTime.format(Date(timeIntervalSince1970: seconds)) == text)
        let parsed = try #require(LedgerTime.parse(text))
        #expect(abs(parsed.timeIntervalSince1970 - seconds) < 1e-6)
    }

    /// Whole seconds spelled as Foundation's ISO 8601 style spells them, the milliseconds exact (the style
    /// itself prints x.645 s as .644 when the double is just below), and the text read back.
    @Test func matchesTheFormatStyleAndRoundTrips() throws {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<5_000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &generator)  // 1970 … 2100
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = LedgerTime.format(date)
            let whole = style.format(Date(timeIntervalSince1970: Double(milliseconds / 1000)))
            #expect(text.prefix(20) == whole.prefix(20), "\(milliseconds) ms")
            #expect(text.dropFirst(20) == String(format: "%03dZ", Int(milliseconds % 1000)), "\(milliseconds) ms")
            let back = try #require(LedgerTime.parse(text))
            #expect(LedgerTime.format(back) == text)
            #expect(abs(back.timeIntervalSince(try style.parse(text))) < 1e-6)
        }
    }

    @Test func acceptsOtherFractionLengths() throws {
        #expect(LedgerTime.parse("2026-12-02T16:00:00Z")?.timeIntervalSince1970 == 1_796_227_200)
        let nanos = try #require(LedgerTime.parse("2026-12-02T16:00:00.123456789Z"))
        #expect(abs(nanos.timeIntervalSince1970 - 1_796_227_200.123456789) < 1e-6)
        #expect(LedgerTime.format(nanos) == "2026-12-02T16:00:00.123Z")
    }

    @Test(arguments: [
        "", "2026-12-02", "2026-12-02T16:00:00.123", "2026-12-02 16:00:00.123Z", "2026-13-02T16:00:00.123Z",
        "2026-12-32T16:00:00.123Z", "2026-12-02T24:00:00.123Z", "2026-12-02T16:60:00.123Z",
        "2026-12-02T16:00:00.Z", "2026-12-02T16:00:00,123Z", "2026-12-02T16:00:00.1234567890Z",
        "2026-12-0xT16:00:00.123Z", "+2026-12-02T16:00:00.123Z",
    ])
    func refusesOtherText(text: String) {
        #expect(LedgerTime.parse(text) == nil)
        #expect(throws: LedgerError.self) { try LedgerFormat.date(text) }
    }
}
