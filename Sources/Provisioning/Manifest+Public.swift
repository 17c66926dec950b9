import JSONReader

extension Manifest {
    /// One row field a job marks public (`"public": ["sku", "lot"]`): a tap answer of `provision serve` shows it.
    public struct PublicField: Sendable, Hashable {
        public var name: String
        /// Where the manifest names it (for errors).
        public var position: TextPosition

        public init(name: String, position: TextPosition) {
            self.name = name
            self.position = position
        }
    }

    /// Refuses a public field that is not a column of the job's records (a CSV header, or a key of some inline row;
    /// JSON Lines rows have no fixed columns and are not checked): an answer could never show it.
    ///
    /// - Throws: `JobInputError` naming the manifest, the line of the name and `public[i]`.
    public func checkPublicFields() throws(JobInputError) {
        guard !publicFields.isEmpty else { return }
        let columns: Set<String>
        switch records {
        case .jsonLines: return
        case .inline(let rows): columns = Set(rows.flatMap(\.fields.keys))
        case .csv:
            guard let header = try openRows().columns else { return }
            columns = Set(header)
        }
        for (index, field) in publicFields.enumerated() where !columns.contains(field.name) {
            throw JobInputError(
                .manifestInvalid, file: file, position: field.position,
                "public[\(index)]: '\(field.name)' is not a field of the job's records "
                    + "(known: \(columns.sorted().joined(separator: ", ")))")
        }
    }
}

extension ManifestDecoder {
    /// `public`: an array of distinct, non-empty row field names.
    func decodePublic(_ node: JSONNode) throws(JobInputError) -> [Manifest.PublicField] {
        guard let elements = node.elements else {
            throw fail(node, "public", "must be an array of field names, found \(node.kindName)")
        }
        var fields: [Manifest.PublicField] = []
        for (index, element) in elements.enumerated() {
            let name = try string(element, "public[\(index)]")
            guard !name.isEmpty else { throw fail(element, "public[\(index)]", "must not be empty") }
            guard !fields.contains(where: { $0.name == name }) else {
                throw fail(element, "public[\(index)]", "'\(name)' is listed twice")
            }
            fields.append(Manifest.PublicField(name: name, position: element.position))
        }
        return fields
    }
}
