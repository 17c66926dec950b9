/// How many decimals a number keeps in a JSON document, chosen by what it measures.
///
/// The one place that decides the precision of every number `provision` writes as JSON (`summary.json`,
/// `run --json`, `report --json`, `write --json`, `inspect --json`), so no document carries float noise
/// such as `0.30000000000000004`. A value rounded with `Double.rounded(_:)` prints with at most
/// `fractionDigits` decimals: it is the double nearest to an integer divided by a power of ten, and the
/// encoder prints the shortest text that reads back as that double. Very small values may still be
/// printed in exponent form (`1e-06`), which has no more decimals than the precision either.
///
/// ```
/// kind            decimals  resolution   fields
/// seconds         6         1 µs         wallSeconds
/// milliseconds    3         1 µs         *_ms, *_ms_per_tag
/// microseconds    1         0.1 µs       airtimeMicroseconds
/// ratio           4         0.01 %       first_pass_yield, measured_over_airtime
/// percent         2         0.01 %       percentages (0…100)
/// mean            2                      exchanges_per_tag (a mean of whole numbers)
/// rate            1                      tags_per_hour
/// ```
public struct JSONPrecision: Sendable, Hashable {
    /// Decimals kept after the point.
    public let fractionDigits: Int

    private init(_ fractionDigits: Int) { self.fractionDigits = fractionDigits }

    /// Durations in seconds: 6 decimals (1 µs).
    public static let seconds = JSONPrecision(6)
    /// Durations in milliseconds: 3 decimals (1 µs).
    public static let milliseconds = JSONPrecision(3)
    /// Durations in microseconds: 1 decimal (0.1 µs, finer than any host measures).
    public static let microseconds = JSONPrecision(1)
    /// Shares and ratios near 1 (yield 0…1, measured ÷ airtime): 4 decimals.
    public static let ratio = JSONPrecision(4)
    /// Percentages (0…100): 2 decimals.
    public static let percent = JSONPrecision(2)
    /// Means of whole numbers (exchanges per tag): 2 decimals.
    public static let mean = JSONPrecision(2)
    /// Rates per hour (tags per hour): 1 decimal.
    public static let rate = JSONPrecision(1)
}

extension Double {
    /// This value rounded half away from zero to the decimals of `precision`.
    ///
    /// Infinite and NaN values, and values too large to carry that many decimals exactly
    /// (|x| · 10^digits ≥ 2^53), are returned unchanged.
    public func rounded(_ precision: JSONPrecision) -> Double {
        var scale = 1.0
        for _ in 0..<precision.fractionDigits { scale *= 10 }
        let scaled = self * scale
        guard isFinite, abs(scaled) < 9_007_199_254_740_992 else { return self }
        let result = scaled.rounded(.toNearestOrAwayFromZero) / scale
        return result == 0 ? 0 : result  // never -0
    }
}

extension Optional where Wrapped == Double {
    /// The value rounded to `precision`, `nil` stays `nil`.
    public func rounded(_ precision: JSONPrecision) -> Double? { map { $0.rounded(precision) } }
}
