import Foundation

/// A Pareto chart: bars in descending order of count, cumulative percentage as a line.
///
/// The line uses a second axis (0–100 %). Used for failures by class; each bar and each point
/// carries its value as a direct label.
public struct ParetoChart: Sendable, Hashable {
    /// One bar.
    public struct Bar: Sendable, Hashable {
        /// The category name.
        public var label: String
        /// Its count.
        public var count: Int
        /// The share of all counts up to and including this bar, in percent (0…100).
        public var cumulativePercent: Double
    }

    /// Bars, largest first; ties keep the order the categories were given in.
    public var bars: [Bar]
    /// Title drawn in the chart.
    public var title: String
    /// What is counted: the value axis title, such as `failed attempts`.
    public var unit: String

    /// Orders `counts` (category, count) descending, dropping zero counts.
    public init(title: String, unit: String, counts: [(String, Int)]) {
        let ordered = counts.enumerated().filter { $0.element.1 > 0 }
            .sorted { $0.element.1 != $1.element.1 ? $0.element.1 > $1.element.1 : $0.offset < $1.offset }
            .map(\.element)
        let total = Double(ordered.reduce(0) { $0 + $1.1 })
        var running = 0
        bars = ordered.map { label, count in
            running += count
            return Bar(label: label, count: count, cumulativePercent: Double(running) / total * 100)
        }
        self.title = title
        self.unit = unit
    }

    /// Chart width and height in CSS pixels.
    public static let size = (width: 960.0, height: 360.0)
    static let plot = (left: 80.0, right: 880.0, top: 50.0, bottom: 270.0)

    /// The chart; `prefix` namespaces its pattern ids.
    public func svg(prefix: String = "pareto", standalone: Bool = false) -> SVGElement {
        let plot = Self.plot
        var parts = [ChartStyle.patterns(prefix: prefix), ChartStyle.heading(title)]
        let peak = Double(bars.map(\.count).max() ?? 0)
        let ticks = ChartStyle.ticks(upTo: max(peak, 1)).map { $0.rounded() }
        let top = ticks.last ?? 1
        func y(_ count: Double) -> Double { plot.bottom - count / top * (plot.bottom - plot.top) }
        func yPercent(_ percent: Double) -> Double { plot.bottom - percent / 100 * (plot.bottom - plot.top) }
        parts.append(
            ChartStyle.valueAxis(
                ticks: Array(Set(ticks)).sorted(), position: y, x: plot.left, top: plot.top, bottom: plot.bottom,
                title: unit, gridWidth: plot.right - plot.left))
        parts.append(
            ChartStyle.valueAxis(
                ticks: [0, 20, 40, 60, 80, 100], position: yPercent, x: plot.right, top: plot.top,
                bottom: plot.bottom, title: "cumulative share (%)", gridWidth: 0, labelsOnRight: true,
                format: { "\(SVG.number($0)) %" }))
        parts.append(SVG.line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom))
        guard !bars.isEmpty else {
            parts.append(
                SVG.text(
                    "none", x: (plot.left + plot.right) / 2, y: (plot.top + plot.bottom) / 2,
                    anchor: "middle", size: 16))
            return document(parts, standalone: standalone)
        }
        let slot = (plot.right - plot.left) / Double(bars.count)
        var points: [(Double, Double)] = []
        for (index, bar) in bars.enumerated() {
            let center = plot.left + (Double(index) + 0.5) * slot
            let width = min(slot * 0.7, 90)
            parts.append(
                SVG.rect(
                    x: center - width / 2, y: y(Double(bar.count)), width: width,
                    height: plot.bottom - y(Double(bar.count)),
                    fill: ChartStyle.fill(index, prefix: prefix), stroke: "#000",
                    extra: [("class", "bar"), ("data-label", bar.label), ("data-value", String(bar.count))]))
            parts.append(
                SVG.text(String(bar.count), x: center, y: y(Double(bar.count)) - 5, anchor: "middle", weight: "bold"))
            parts.append(
                SVG.text(bar.label, x: center + 4, y: plot.bottom + 14, anchor: "end", size: 11, rotate: -30))
            points.append((center, yPercent(bar.cumulativePercent)))
        }
        parts.append(SVG.polyline(points, extra: [("class", "cumulative")]))
        for (index, point) in points.enumerated() {
            let percent = bars[index].cumulativePercent
            parts.append(
                SVG.circle(
                    cx: point.0, cy: point.1, r: 4, fill: "#fff", stroke: "#000",
                    extra: [("class", "point"), ("data-value", SVG.number(percent))]))
            // Black on a white chip with a thin border: readable on any bar, the darkest first one included.
            let label = "\(SVG.number(percent.rounded())) %"
            let width = Double(label.count) * 6.2 + 6
            parts.append(
                SVG.rect(
                    x: point.0 - 7 - width + 3, y: point.1 - 19, width: width, height: 14, fill: "#fff",
                    stroke: "#000", extra: [("class", "label-chip")]))
            parts.append(SVG.text(label, x: point.0 - 7, y: point.1 - 8, anchor: "end", size: 10))
        }
        return document(parts, standalone: standalone)
    }

    private func document(_ parts: [SVGElement], standalone: Bool) -> SVGElement {
        let listing = bars.map { "\($0.label) \($0.count)" }.joined(separator: ", ")
        return SVG.document(
            width: Self.size.width, height: Self.size.height, title: title,
            description: bars.isEmpty ? "No \(unit)." : "Descending: \(listing).", standalone: standalone,
            children: parts)
    }
}
