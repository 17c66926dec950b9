import Foundation

/// The ledger's timestamp spelling, `2026-12-02T16:00:00.123Z` (UTC, milliseconds), without a formatter.
///
/// A tag's claim and commit store five timestamps and read one back; `Date.ISO8601FormatStyle` costs
/// microseconds each, this costs nanoseconds. Milliseconds are truncated toward the past, as the format
/// style does, and `parse(format(d))` is `d` truncated to the millisecond.
enum LedgerTime {
    /// Milliseconds in a day.
    private static let dayMilliseconds: Int64 = 86_400_000

    /// `date` as ISO 8601 UTC with milliseconds.
    static func format(_ date: Date) -> String {
        // Half a microsecond of slack: a time read back from its text (x.123 as x.12299999…) keeps its digits.
        let total = Int64((date.timeIntervalSince1970 * 1000 + 0.000_5).rounded(.down))
        let days = floorDivide(total, dayMilliseconds)
        var rest = total - days * dayMilliseconds
        let (year, month, day) = civil(fromDays: days)
        let milliseconds = rest % 1000
        rest /= 1000
        var text: [UInt8] = []
        text.reserveCapacity(24)
        append(year, digits: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        append(month, digits: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        append(day, digits: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        append(rest / 3600, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(rest / 60 % 60, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(rest % 60, digits: 2, to: &text)
        text.append(UInt8(ascii: "."))
        append(milliseconds, digits: 3, to: &text)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// A timestamp in that spelling (1 to 9 fraction digits, or none), or `nil`.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20, bytes[bytes.count - 1] == UInt8(ascii: "Z") else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<(start + count) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        for (index, character) in separators where bytes[index] != character.asciiValue { return nil }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var nanoseconds: Int64 = 0
        if bytes.count > 20 {
            let fractionDigits = bytes.count - 21
            guard bytes[19] == UInt8(ascii: "."), (1...9).contains(fractionDigits),
                let fraction = number(20, fractionDigits)
            else { return nil }
            nanoseconds = fraction
            for _ in fractionDigits..<9 { nanoseconds *= 10 }
        }
        let days = days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    private static func append(_ value: Int64, digits: Int, to text: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<digits { divisor *= 10 }
        var value = value
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            value %= divisor
            divisor /= 10
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// Year, month and day of a count of days since 1970-01-01 (proleptic Gregorian calendar).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a calendar date (inverse of `civil(fromDays:)`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = floorDivide(year, 400)
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
