import Foundation

/// Small constructors for the SVG elements the charts use, with deterministic number formatting.
///
/// Every chart is a fixed-size `<svg>` with a `viewBox`, a `<title>` and a `<desc>` (read by screen
/// readers), drawn in black and grays only so it prints and photocopies the same as on screen.
public enum SVG {
    /// The SVG namespace, written only on standalone documents (inline SVG in HTML does not need it).
    static let namespace = "http://www.w3.org/2000/svg"

    /// A root `<svg>` of a fixed size in CSS pixels.
    ///
    /// - Parameters:
    ///   - width: Width in CSS pixels.
    ///   - height: Height in CSS pixels.
    ///   - title: The `<title>` (the accessible name).
    ///   - description: The `<desc>` (what the chart shows, in words).
    ///   - standalone: Adds the `xmlns` attribute needed when the SVG is a file of its own.
    ///   - children: The drawing.
    /// - Returns: The `<svg>` element.
    public static func document(
        width: Double, height: Double, title: String, description: String, standalone: Bool = false,
        children: [SVGElement]
    ) -> SVGElement {
        var attributes: [(String, String)] = []
        if standalone { attributes.append(("xmlns", namespace)) }
        attributes += [
            ("width", number(width)), ("height", number(height)),
            ("viewBox", "0 0 \(number(width)) \(number(height))"), ("role", "img"),
            ("font-family", "DejaVu Sans, Liberation Sans, Arial, sans-serif"), ("font-size", "12"),
        ]
        let heading = [SVGElement("title", text: title), SVGElement("desc", text: description)]
        return SVGElement("svg", attributes, children: heading + children)
    }

    /// A `<rect>`; negative sizes are clamped to zero.
    public static func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String,
        stroke: String? = nil, extra: [(String, String)] = []
    ) -> SVGElement {
        var attributes = [
            ("x", number(x)), ("y", number(y)), ("width", number(max(width, 0))), ("height", number(max(height, 0))),
            ("fill", fill),
        ]
        if let stroke { attributes += [("stroke", stroke), ("stroke-width", "1")] }
        return SVGElement("rect", attributes + extra)
    }

    /// A `<line>`.
    public static func line(
        x1: Double, y1: Double, x2: Double, y2: Double, stroke: String = "#000",
        width: Double = 1, dash: String? = nil, extra: [(String, String)] = []
    ) -> SVGElement {
        var attributes = [
            ("x1", number(x1)), ("y1", number(y1)), ("x2", number(x2)), ("y2", number(y2)), ("stroke", stroke),
            ("stroke-width", number(width)),
        ]
        if let dash { attributes.append(("stroke-dasharray", dash)) }
        return SVGElement("line", attributes + extra)
    }

    /// A `<text>`; `anchor` is `start`, `middle` or `end`.
    public static func text(
        _ content: String, x: Double, y: Double, anchor: String = "start", size: Double? = nil,
        weight: String? = nil, rotate: Double? = nil, extra: [(String, String)] = []
    ) -> SVGElement {
        var attributes = [("x", number(x)), ("y", number(y)), ("text-anchor", anchor)]
        if let size { attributes.append(("font-size", number(size))) }
        if let weight { attributes.append(("font-weight", weight)) }
        if let rotate { attributes.append(("transform", "rotate(\(number(rotate)) \(number(x)) \(number(y)))")) }
        return SVGElement("text", attributes + extra, text: content)
    }

    /// A `<polyline>` through `points`.
    public static func polyline(
        _ points: [(Double, Double)], stroke: String = "#000", width: Double = 2,
        extra: [(String, String)] = []
    ) -> SVGElement {
        let list = points.map { "\(number($0.0)),\(number($0.1))" }.joined(separator: " ")
        return SVGElement(
            "polyline",
            [("points", list), ("fill", "none"), ("stroke", stroke), ("stroke-width", number(width))] + extra)
    }

    /// A `<circle>`.
    public static func circle(
        cx: Double, cy: Double, r: Double, fill: String = "#000", stroke: String? = nil,
        extra: [(String, String)] = []
    ) -> SVGElement {
        var attributes = [("cx", number(cx)), ("cy", number(cy)), ("r", number(r)), ("fill", fill)]
        if let stroke { attributes += [("stroke", stroke), ("stroke-width", "1.5")] }
        return SVGElement("circle", attributes + extra)
    }

    /// A `<g>` grouping `children`.
    public static func group(_ attributes: [(String, String)] = [], _ children: [SVGElement]) -> SVGElement {
        SVGElement("g", attributes, children: children)
    }

    /// `value` with exactly `digits` decimals (0…6), `.` as separator, no grouping, `0` for non-finite
    /// values: locale-independent, so a report renders to the same bytes on every machine.
    public static func fixed(_ value: Double, digits: Int) -> String {
        let digits = min(max(digits, 0), 6)
        let scale = pow(10, Double(digits))
        guard value.isFinite, abs(value * scale) < 1e15 else { return "0" }
        let scaled = Int64((value * scale).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = scaled.magnitude
        let unit = UInt64(scale)
        guard digits > 0 else { return sign + String(magnitude) }
        let fraction = String(magnitude % unit)
        return sign + String(magnitude / unit) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// A number with at most two decimals, no trailing zeros, `.` as separator, `0` for non-finite
    /// values: the same value always prints the same way, in any locale.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = (value * 100).rounded()
        guard abs(hundredths) < 1e15 else { return "0" }
        let scaled = Int64(hundredths)
        let sign = scaled < 0 ? "-" : ""
        let magnitude = scaled.magnitude
        let whole = magnitude / 100
        let fraction = magnitude % 100
        if fraction == 0 { return scaled == 0 ? "0" : "\(sign)\(whole)" }
        let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return "\(sign)\(whole).\(digits)"
    }
}
