import Foundation
import Provisioning

/// Audit results as one bar per status (pass, mismatch, unknown, unlocked, authFailed, configMismatch,
/// identityMismatch, blank),
/// in that fixed order, each with its own gray or pattern and its count and share written above it.
public struct AuditChart: Sendable, Hashable {
    /// Counts per status, in `AuditStatus.allCases` order.
    public var counts: [(status: AuditStatus, count: Int)] {
        AuditStatus.allCases.map { ($0, countsByStatus[$0] ?? 0) }
    }
    private var countsByStatus: [AuditStatus: Int]

    /// The chart of `report`'s findings.
    public init(_ report: AuditReport) { countsByStatus = report.counts }

    /// Chart width and height in CSS pixels.
    public static let size = (width: 960.0, height: 320.0)
    static let plot = (left: 80.0, right: 940.0, top: 50.0, bottom: 260.0)

    /// The bar fill of `status` (pass light, mismatch darkest; unknown, unlocked and authFailed patterned,
    /// configMismatch mid gray, identityMismatch dark gray, unreadable light gray, blank white).
    static func fill(_ status: AuditStatus, prefix: String) -> String {
        switch status {
        case .pass: ChartStyle.fill(5, prefix: prefix)
        case .mismatch: ChartStyle.fill(0, prefix: prefix)
        case .unknown: ChartStyle.fill(1, prefix: prefix)
        case .unlocked: ChartStyle.fill(3, prefix: prefix)
        case .authFailed: ChartStyle.fill(4, prefix: prefix)
        case .configMismatch: ChartStyle.fill(2, prefix: prefix)
        case .identityMismatch: "#6b6b6b"  // a seventh fill: ChartStyle has six
        case .blank: "#ffffff"  // a blank tag: an empty bar
        case .unreadable: "#a3a3a3"  // nothing was read: a light gray of its own
        }
    }

    /// The chart; `prefix` namespaces its pattern ids.
    public func svg(prefix: String = "audit", standalone: Bool = false) -> SVGElement {
        let plot = Self.plot
        let counts = self.counts
        let total = counts.reduce(0) { $0 + $1.count }
        let ticks = ChartStyle.ticks(upTo: Double(max(counts.map(\.count).max() ?? 0, 1))).map { $0.rounded() }
        let top = ticks.last ?? 1
        func y(_ value: Double) -> Double { plot.bottom - value / top * (plot.bottom - plot.top) }
        var parts = [ChartStyle.patterns(prefix: prefix), ChartStyle.heading("Audit: tags by result (\(total) read)")]
        parts.append(
            ChartStyle.valueAxis(
                ticks: Array(Set(ticks)).sorted(), position: y, x: plot.left, top: plot.top, bottom: plot.bottom,
                title: "tags", gridWidth: plot.right - plot.left))
        parts.append(SVG.line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom))
        let slot = (plot.right - plot.left) / Double(counts.count)
        for (index, entry) in counts.enumerated() {
            let center = plot.left + (Double(index) + 0.5) * slot
            let width = slot * 0.55
            let value = Double(entry.count)
            parts.append(
                SVG.rect(
                    x: center - width / 2, y: y(value), width: width, height: plot.bottom - y(value),
                    fill: Self.fill(entry.status, prefix: prefix), stroke: "#000",
                    extra: [
                        ("class", "bar"), ("data-label", entry.status.rawValue), ("data-value", String(entry.count)),
                    ]))
            let share = total > 0 ? " (\(SVG.number((value / Double(total) * 1000).rounded() / 10)) %)" : ""
            parts.append(
                SVG.text("\(entry.count)\(share)", x: center, y: y(value) - 6, anchor: "middle", weight: "bold"))
            parts.append(SVG.text(entry.status.rawValue, x: center, y: plot.bottom + 20, anchor: "middle", size: 13))
        }
        parts.append(SVG.text("result", x: (plot.left + plot.right) / 2, y: plot.bottom + 44, anchor: "middle"))
        let listing = counts.map { "\($0.status.rawValue) \($0.count)" }.joined(separator: ", ")
        return SVG.document(
            width: Self.size.width, height: Self.size.height, title: "Audit results",
            description: "Tags by audit result: \(listing).", standalone: standalone, children: parts)
    }
}
