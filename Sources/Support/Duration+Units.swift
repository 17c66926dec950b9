/// A `Duration` in the units the ledger, reports and C timeouts use: one conversion for every layer.
extension Duration {
    /// Whole microseconds, truncated (ledger phase durations).
    public var wholeMicroseconds: Int {
        let parts = components
        return Int(parts.seconds) * 1_000_000 + Int(parts.attoseconds / 1_000_000_000_000)
    }

    /// Microseconds with their fraction (phase costs before rounding).
    public var microseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1_000_000 + Double(parts.attoseconds) / 1e12
    }

    /// Seconds with their fraction (wall times, rates).
    public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// Whole milliseconds, truncated (C timeouts that take milliseconds).
    public var wholeMilliseconds: Int {
        let parts = components
        return Int(parts.seconds) * 1000 + Int(parts.attoseconds / 1_000_000_000_000_000)
    }

    /// Whole milliseconds, rounded up (a wait that must not end early).
    public var millisecondsRoundedUp: Int {
        let parts = components
        return Int(parts.seconds) * 1000 + Int((parts.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
