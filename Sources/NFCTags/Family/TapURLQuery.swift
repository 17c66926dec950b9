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
        var parameters: [Parameter] = []
        var names: Set<String> = []
        guard let mark = url.firstIndex(of: "?") else {
            self.parameters = []
            return
        }
        let query = url[url.index(after: mark)...].prefix { $0 != "#" }
        for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: "=")
            let name = String(piece[..<(equals ?? piece.endIndex)])
            let range = (equals.map { piece.index(after: $0) } ?? piece.endIndex)..<piece.endIndex
            guard names.insert(name).inserted else { throw Duplicate(name: name) }
            parameters.append(Parameter(name: name, value: String(url[range]), range: range))
        }
        self.parameters = parameters
    }

    /// The parameter named exactly `name`, if the query has it.
    public func parameter(_ name: String) -> Parameter? { parameters.first { $0.name == name } }
}
