import Foundation

/// One SVG (or XML) element: a name, ordered attributes, child elements and optional text.
///
/// Rendering escapes every attribute value and every text node, and replaces characters XML 1.0
/// forbids, so the output is always well-formed whatever the data (a UID, a reader name or a
/// failure detail containing `<script>` shows as text). Attribute order is kept as given, so the
/// same element always renders to the same bytes.
public struct SVGElement: Sendable, Hashable {
    /// One attribute (`name="value"`).
    public struct Attribute: Sendable, Hashable {
        /// The attribute name (letters, digits, `-`, `_`, `:`, `.`; anything else is dropped).
        public var name: String
        /// The raw value; escaped when rendered.
        public var value: String
    }

    /// The element name (`svg`, `rect`, `text`, …).
    public var name: String
    /// Attributes in rendering order.
    public var attributes: [Attribute]
    /// Child elements, rendered after `text`.
    public var children: [SVGElement]
    /// Text content (escaped when rendered).
    public var text: String?

    /// Creates an element from `(name, value)` pairs kept in order.
    public init(_ name: String, _ attributes: [(String, String)] = [], text: String? = nil, children: [SVGElement] = [])
    {
        self.name = name
        self.attributes = attributes.map { Attribute(name: $0.0, value: $0.1) }
        self.text = text
        self.children = children
    }

    /// The value of the first attribute called `name`, if any.
    public func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// Adds (or replaces) an attribute and returns the element.
    public func with(_ name: String, _ value: String) -> SVGElement {
        var copy = self
        if let index = copy.attributes.firstIndex(where: { $0.name == name }) {
            copy.attributes[index].value = value
        } else {
            copy.attributes.append(Attribute(name: name, value: value))
        }
        return copy
    }

    /// Appends a child element.
    public mutating func append(_ child: SVGElement) { children.append(child) }

    /// Appends child elements.
    public mutating func append(contentsOf more: [SVGElement]) { children.append(contentsOf: more) }

    /// The element as XML text (no declaration, no trailing newline).
    public func render() -> String {
        var out = ""
        render(into: &out)
        return out
    }

    private func render(into out: inout String) {
        let tag = Self.safeName(name)
        out += "<" + tag
        for attribute in attributes {
            out += " " + Self.safeName(attribute.name) + "=\"" + Self.escape(attribute.value, quotes: true) + "\""
        }
        if children.isEmpty && (text ?? "").isEmpty {
            out += "/>"
            return
        }
        out += ">"
        if let text { out += Self.escape(text, quotes: false) }
        if !children.isEmpty {
            out += "\n"
            for child in children {
                child.render(into: &out)
                out += "\n"
            }
        }
        out += "</" + tag + ">"
    }

    /// Escapes `&`, `<`, `>` (and `"`, `'` when `quotes`), and replaces characters XML 1.0 does not
    /// allow (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF) with U+FFFD.
    public static func escape(_ text: String, quotes: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                    || (0x7F...0x9F).contains(scalar.value)
                {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Keeps only the characters allowed in our element and attribute names; `x` if none remain.
    static func safeName(_ name: String) -> String {
        let kept = name.unicodeScalars.filter { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                || scalar == "-" || scalar == "_" || scalar == ":" || scalar == "."
        }
        let text = String(String.UnicodeScalarView(kept))
        guard let first = text.unicodeScalars.first, !(first >= "0" && first <= "9"), first != "-", first != "." else {
            return "x" + text
        }
        return text
    }
}
