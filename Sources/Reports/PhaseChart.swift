import Foundation
import Provisioning

/// Time per tag in each phase as horizontal box plots on a log scale, with the modelled radio floor
/// as a dashed reference line when the run's timing is modelled.
///
/// One row per `Phase` (successful attempts), then a "tag work" row (identify … ledger summed per
/// tag), which is the row the radio floor (mean modelled airtime per tag) compares with. Box: p25 to
/// p75; thick bar: median; whiskers: min to max; tick: p95 (nearest-rank percentiles).
public struct PhaseChart: Sendable, Hashable {
    /// The distribution of one row, in milliseconds.
    public struct Row: Sendable, Hashable {
        /// The phase name, or `tag work` for the summed row.
        public var label: String
        public var count: Int
        public var min: Double
        public var p25: Double
        public var p50: Double
        public var p75: Double
        public var p95: Double
        public var max: Double
    }

    /// Rows with at least one value, phases in cycle order then `tag work`.
    public var rows: [Row]
    /// Mean modelled airtime per tag in ms, when every successful attempt was modelled.
    public var radioFloorMilliseconds: Double?

    /// The distributions of `report`'s successful attempts.
    public init(_ report: RunReport) {
        let successes = report.attempts.filter { $0.failure == nil }
        var rows: [Row] = []
        for phase in Phase.allCases {
            let values = successes.compactMap { $0.phaseMicroseconds[phase] }.map { $0 / 1000 }
            if let row = Self.row(phase.rawValue, values) { rows.append(row) }
        }
        let work = successes.map { attempt in
            Phase.tagWork.reduce(0.0) { $0 + (attempt.phaseMicroseconds[$1] ?? 0) } / 1000
        }
        if let row = Self.row("tag work", work) { rows.append(row) }
        self.rows = rows
        radioFloorMilliseconds = RunFigures(report).airtimePerTagMilliseconds
    }

    /// Nearest-rank summary of `values`; `nil` when empty.
    static func row(_ label: String, _ values: [Double]) -> Row? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double {
            let index = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.min(Swift.max(index, 0), sorted.count - 1)]
        }
        return Row(
            label: label, count: sorted.count, min: sorted[0], p25: rank(0.25), p50: rank(0.5), p75: rank(0.75),
            p95: rank(0.95), max: sorted[sorted.count - 1])
    }

    /// Chart width in CSS pixels (the height grows with the rows: 34 px each).
    public static let width = 960.0
    static let plot = (left: 110.0, right: 770.0, top: 64.0, rowHeight: 34.0)

    /// The decades spanned by the log axis (ms).
    public var decades: [Double] {
        let positive =
            rows.flatMap { [$0.min, $0.max] }.filter { $0 > 0 } + [radioFloorMilliseconds ?? 0].filter { $0 > 0 }
        return ChartStyle.decades(from: positive.min() ?? 1, to: positive.max() ?? 10)
    }

    /// The x position of `milliseconds` on the log axis (values at or below the lowest decade sit on it).
    public func x(_ milliseconds: Double) -> Double {
        let plot = Self.plot
        let decades = self.decades
        let low = log10(decades[0])
        let high = log10(decades[decades.count - 1])
        let value = log10(Swift.max(milliseconds, decades[0]))
        return plot.left + (value - low) / (high - low) * (plot.right - plot.left)
    }

    /// The chart.
    public func svg(standalone: Bool = false) -> SVGElement {
        let plot = Self.plot
        let bottom = plot.top + Double(Swift.max(rows.count, 1)) * plot.rowHeight
        let height = bottom + 56
        var parts = [ChartStyle.heading("Time per tag by phase (ms, log scale; successful tags)")]
        parts.append(
            SVG.text("box p25–p75 · bar median · whiskers min–max · tick p95", x: plot.left, y: 42, size: 11))
        parts.append(SVG.text("n · p50 · p95 (ms)", x: plot.right + 14, y: plot.top - 8, size: 11, weight: "bold"))
        for decade in decades {
            let x = x(decade)
            parts.append(SVG.line(x1: x, y1: plot.top, x2: x, y2: bottom, stroke: "#d0d0d0", width: 0.6))
            parts.append(SVG.line(x1: x, y1: bottom, x2: x, y2: bottom + 5))
            parts.append(SVG.text(ChartStyle.label(decade), x: x, y: bottom + 18, anchor: "middle", size: 11))
        }
        parts.append(SVG.line(x1: plot.left, y1: bottom, x2: plot.right, y2: bottom))
        parts.append(
            SVG.text("time per tag (ms, log scale)", x: (plot.left + plot.right) / 2, y: bottom + 40, anchor: "middle"))
        if rows.isEmpty {
            parts.append(SVG.text("no successful tags yet", x: plot.left + 10, y: plot.top + 22))
        }
        for (index, row) in rows.enumerated() {
            parts.append(box(row, top: plot.top + Double(index) * plot.rowHeight))
        }
        if let floor = radioFloorMilliseconds, floor > 0 {
            let x = x(floor)
            parts.append(
                SVG.line(
                    x1: x, y1: plot.top - 4, x2: x, y2: bottom, stroke: "#000", width: 1.5, dash: "6 3",
                    extra: [("class", "floor"), ("data-value", SVG.number(floor))]))
            parts.append(
                SVG.text(
                    "radio floor \(SVG.number(floor)) ms (mean modelled airtime per tag)", x: x, y: plot.top - 8,
                    anchor: x > (plot.left + plot.right) / 2 ? "end" : "start", size: 11))
        }
        let description =
            "Box plots of per-phase time per tag for \(rows.count) rows"
            + (radioFloorMilliseconds.map { "; radio floor \(SVG.number($0)) ms" } ?? "; timing not modelled") + "."
        return SVG.document(
            width: Self.width, height: height, title: "Time per tag by phase", description: description,
            standalone: standalone, children: parts)
    }

    private func box(_ row: Row, top: Double) -> SVGElement {
        let plot = Self.plot
        let middle = top + plot.rowHeight / 2
        let summed = row.label == "tag work"
        var parts = [
            SVG.text(row.label, x: plot.left - 10, y: middle + 4, anchor: "end", weight: summed ? "bold" : nil),
            SVG.line(x1: x(row.min), y1: middle, x2: x(row.max), y2: middle, extra: [("class", "whisker")]),
            SVG.line(x1: x(row.min), y1: middle - 6, x2: x(row.min), y2: middle + 6),
            SVG.line(x1: x(row.max), y1: middle - 6, x2: x(row.max), y2: middle + 6),
            SVG.rect(
                x: x(row.p25), y: middle - 9, width: Swift.max(x(row.p75) - x(row.p25), 1), height: 18,
                fill: summed ? "#a6a6a6" : "#e0e0e0", stroke: "#000", extra: [("class", "box")]),
            SVG.line(
                x1: x(row.p50), y1: middle - 9, x2: x(row.p50), y2: middle + 9, stroke: "#000", width: 3,
                extra: [("class", "median"), ("data-value", SVG.number(row.p50))]),
            SVG.line(x1: x(row.p95), y1: middle - 5, x2: x(row.p95), y2: middle + 5, width: 2),
        ]
        let numbers = "\(row.count) · \(SVG.number(row.p50)) · \(SVG.number(row.p95))"
        parts.append(SVG.text(numbers, x: plot.right + 14, y: middle + 4, size: 11))
        return SVG.group([("class", "phase"), ("data-phase", row.label)], parts)
    }
}
