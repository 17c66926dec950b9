/// The query parameters of a tap URL, read the one way every verifier reads them: only the query component counts
/// (after the first `?`, up to a `#`), names are compared exactly, and a name given twice is refused, so a
/// `&NAME=` in the path or the fragment, or a second value, never chooses what is checked.
public struct TapURLQuery: Sendable {
    /// One `NAME=VALUE` of the query (a piece without `=` has an empty value), with where its value sits in the URL.
    public struct Parameter: Sendable, Hashable {
        /// The name, as written (no percent-decoding).
        public var name: String
        /// The value, as written.
        public var value: String
        /// Where the value sits in the URL (an index of every view of it, UTF-8 included).
        public var range: Range<String.Index>
    }

    /// A query that names a parameter twice.
    public struct Duplicate: Error, Sendable, Hashable, CustomStringConvertible {
        /// The parameter named twice.
        public var name: String

        public var description: String { "the parameter '\(name)' appears more than once in the URL's query" }
    }

    /// The parameters in URL order.
    public let parameters: [Parameter]

    /// Takes `url`'s query apart.
    ///
    /// - Throws: `Duplicate` when a name appears twice.
    public init(_ url: String) throws(Duplicate) {
        // On the UTF-8 view (every delimiter is ASCII): the Character view's grapheme breaking cost more than the
        // rest of a tap's parsing, twice a tap (verification and `masked`).
        let bytes = url.utf8
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else {
            self.parameters = []
            return
        }
        let start = bytes.index(after: mark)
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        var parameters: [Parameter] = []
        var names: Set<String> = []
        var piece = start
        while piece < end {
            let pieceEnd = bytes[piece..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
            if piece < pieceEnd {
                let equals = bytes[piece..<pieceEnd].firstIndex(of: UInt8(ascii: "="))
                let name = String(url[piece..<(equals ?? pieceEnd)])
                let range = (equals.map { bytes.index(after: $0) } ?? pieceEnd)..<pieceEnd
                guard names.insert(name).inserted else { throw Duplicate(name: name) }
                parameters.append(Parameter(name: name, value: String(url[range]), range: range))
            }
            piece = pieceEnd < end ? bytes.index(after: pieceEnd) : end
        }
        self.parameters = parameters
    }

    /// The parameter named exactly `name`, if the query has it.
    public func parameter(_ name: String) -> Parameter? { parameters.first { $0.name == name } }
}
