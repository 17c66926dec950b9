import Foundation
import TestSupport
import Testing

/// The contract every `--json` document keeps (docs/json.md, version 2): checked against its schema in
/// docs/schemas by Python's `jsonschema`, then parsed for the test's own checks.
enum JSONContract {
    /// `outcome`'s stdout checked against `docs/schemas/<schema>.schema.json`: the exit status is `status`, the
    /// document conforms (every violation is reported) and carries version 2; the parsed object.
    static func check(
        _ outcome: ProvisionProcess.Outcome, schema: String, status: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Any] {
        #expect(outcome.status == status, "\(schema): \(outcome.stderr)", sourceLocation: sourceLocation)
        return try check(document: outcome.stdout, schema: schema, sourceLocation: sourceLocation)
    }

    /// The document text `text` checked against schema `schema`, as `check(_:schema:status:)`.
    static func check(
        document text: String, schema: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Any] {
        let violations = try JSONSchemaCheck.violations(of: text, schema: schema)
        #expect(
            violations.isEmpty, "\(schema): \(violations.joined(separator: "\n"))\n\(text)",
            sourceLocation: sourceLocation)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(schema): \(text)",
            sourceLocation: sourceLocation)
        #expect(object["version"] as? Int == 2, "\(schema)", sourceLocation: sourceLocation)
        return object
    }
}
