/// A parsed JSON value that remembers where each part was written.
///
/// Manifests, templates and JSON Lines rows are parsed into this tree so that every error can name
/// the file, line and column. Objects keep their keys in order and reject duplicates at parse time.
public struct JSONNode: Sendable {
    /// The value kinds; numbers keep their source text so integers are never rounded.
    public enum Kind: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number as written (`12`, `-3.5e2`).
        case number(String)
        /// A decoded string; `columns[i]` is the source column of the i-th Unicode scalar.
        case string(String, columns: [Int])
        /// An array.
        case array([JSONNode])
        /// An object, keys in source order.
        case object([Member])
    }

    /// One `"key": value` pair of an object.
    public struct Member: Sendable {
        /// The key.
        public var key: String
        /// Where the key's opening quote is.
        public var keyPosition: TextPosition
        /// The value.
        public var value: JSONNode
    }

    /// The value.
    public var kind: Kind
    /// Where the value starts.
    public var position: TextPosition

    /// The string value, if this is a string.
    public var string: String? {
        if case .string(let text, _) = kind { return text }
        return nil
    }

    /// The members, if this is an object.
    public var members: [Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// The elements, if this is an array.
    public var elements: [JSONNode]? {
        if case .array(let elements) = kind { return elements }
        return nil
    }

    /// The value of `key`, if this is an object holding it.
    public subscript(key: String) -> JSONNode? {
        members?.first { $0.key == key }?.value
    }

    /// A short name of the kind for messages (`a string`, `an object`).
    public var kindName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
