import Foundation

/// The grayscale look shared by every chart: fills that stay distinct without colour (gray levels
/// and hatch patterns), axis drawing and "nice" tick values.
public enum ChartStyle {
    /// The number of distinct series fills.
    public static let fillCount = 6

    /// The fill of series `index` (cycles after `fillCount`); `prefix` namespaces pattern ids so
    /// several inline charts can share one page.
    public static func fill(_ index: Int, prefix: String) -> String {
        switch index % fillCount {
        case 0: "#3a3a3a"
        case 1: "url(#\(prefix)-hatch)"
        case 2: "#a6a6a6"
        case 3: "url(#\(prefix)-dots)"
        case 4: "url(#\(prefix)-cross)"
        default: "#e0e0e0"
        }
    }

    /// The `<defs>` with the hatch, dot and cross-hatch patterns used by `fill(_:prefix:)`.
    public static func patterns(prefix: String) -> SVGElement {
        func pattern(_ name: String, _ shapes: [SVGElement]) -> SVGElement {
            SVGElement(
                "pattern",
                [("id", "\(prefix)-\(name)"), ("width", "6"), ("height", "6"), ("patternUnits", "userSpaceOnUse")],
                children: [SVG.rect(x: 0, y: 0, width: 6, height: 6, fill: "#fff")] + shapes)
        }
        return SVGElement(
            "defs",
            children: [
                pattern("hatch", [SVG.line(x1: 0, y1: 6, x2: 6, y2: 0, stroke: "#000", width: 1.2)]),
                pattern("dots", [SVG.circle(cx: 3, cy: 3, r: 1.3, fill: "#000")]),
                pattern(
                    "cross",
                    [
                        SVG.line(x1: 0, y1: 6, x2: 6, y2: 0, stroke: "#000", width: 0.9),
                        SVG.line(x1: 0, y1: 0, x2: 6, y2: 6, stroke: "#000", width: 0.9),
                    ]),
            ])
    }

    /// Up to about `count` round tick values from 0 to at least `maximum` (steps of 1, 2 or 5 × 10ⁿ).
    public static func ticks(upTo maximum: Double, count: Int = 5) -> [Double] {
        guard maximum.isFinite, maximum > 0 else { return [0, 1] }
        let raw = maximum / Double(max(count, 1))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        let top = (maximum / step).rounded(.up) * step
        return stride(from: 0, through: top + step / 2, by: step).map { $0 }
    }

    /// Powers of ten covering `low…high` (both > 0), for log axes.
    public static func decades(from low: Double, to high: Double) -> [Double] {
        let first = Int(log10(max(low, 1e-6)).rounded(.down))
        let last = max(Int(log10(max(high, 1e-6)).rounded(.up)), first + 1)
        return (first...last).map { pow(10, Double($0)) }
    }

    /// A tick label: integers plainly, others with up to two decimals (`0.01`, `2.5`).
    public static func label(_ value: Double) -> String { SVG.number(value) }

    /// A vertical value axis at `x` from `top` to `bottom` with tick labels and a rotated title,
    /// plus light horizontal grid lines across `gridWidth` (0 for none).
    static func valueAxis(
        ticks: [Double], position: (Double) -> Double, x: Double, top: Double, bottom: Double, title: String,
        gridWidth: Double, labelsOnRight: Bool = false, format: (Double) -> String = label
    ) -> SVGElement {
        var parts: [SVGElement] = [SVG.line(x1: x, y1: top, x2: x, y2: bottom)]
        for tick in ticks {
            let y = position(tick)
            if gridWidth > 0 {
                parts.append(SVG.line(x1: x, y1: y, x2: x + gridWidth, y2: y, stroke: "#d0d0d0", width: 0.6))
            }
            let side = labelsOnRight ? 1.0 : -1.0
            parts.append(SVG.line(x1: x, y1: y, x2: x + 5 * side, y2: y))
            parts.append(
                SVG.text(format(tick), x: x + 8 * side, y: y + 4, anchor: labelsOnRight ? "start" : "end", size: 11))
        }
        let titleX = labelsOnRight ? x + 50 : x - 52
        parts.append(
            SVG.text(
                title, x: titleX, y: (top + bottom) / 2, anchor: "middle", size: 12,
                rotate: labelsOnRight ? 90 : -90))
        return SVG.group([("class", "axis")], parts)
    }

    /// A chart heading drawn inside the SVG (so a saved or printed chart keeps its title).
    static func heading(_ text: String, x: Double = 12, y: Double = 20) -> SVGElement {
        SVG.text(text, x: x, y: y, size: 14, weight: "bold", extra: [("class", "heading")])
    }

    /// A legend row: swatches with labels, starting at `x`, `y`.
    static func legend(_ entries: [(label: String, fill: String)], x: Double, y: Double) -> SVGElement {
        var parts: [SVGElement] = []
        var cursor = x
        for entry in entries {
            parts.append(SVG.rect(x: cursor, y: y - 10, width: 14, height: 12, fill: entry.fill, stroke: "#000"))
            parts.append(SVG.text(entry.label, x: cursor + 19, y: y, size: 11))
            cursor += 30 + Double(entry.label.count) * 6.5
        }
        return SVG.group([("class", "legend")], parts)
    }
}
