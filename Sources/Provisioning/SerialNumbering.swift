/// The `serial` settings of a manifest: row r gets `prefix` + (start + (r − 1) × step), zero-padded to `width`.
///
/// A row keeps its serial whether its tag succeeds, is retried or is burned, so serials never
/// depend on the order tags arrive.
public struct SerialNumbering: Sendable, Hashable {
    /// The serial of row 1 (default 1).
    public var start: Int
    /// The increment per row (default 1, at least 1).
    public var step: Int
    /// Minimum digits, zero-padded on the left (default 0: no padding).
    public var width: Int
    /// Text put before the digits (default empty).
    public var prefix: String

    /// Creates serial settings.
    public init(start: Int = 1, step: Int = 1, width: Int = 0, prefix: String = "") {
        self.start = start
        self.step = step
        self.width = width
        self.prefix = prefix
    }

    /// The serial text for 1-based `row`, or `nil` if the number overflows.
    public func value(forRow row: Int) -> String? {
        let (offset, overflow1) = (row - 1).multipliedReportingOverflow(by: step)
        let (number, overflow2) = start.addingReportingOverflow(offset)
        guard !overflow1, !overflow2 else { return nil }
        let digits = String(number)
        let padding = max(0, width - digits.count)
        return prefix + String(repeating: "0", count: padding) + digits
    }
}
