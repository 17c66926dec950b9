import Foundation

/// Checks a JSON document against its schema in docs/schemas with Python's `jsonschema` (draft 2020-12), a
/// validator nobody here wrote, so a client that validates our documents agrees with the contract tests.
///
/// `make test-deps` installs it (Debian package `python3-jsonschema`).
public enum JSONSchemaCheck {
    /// Why a document could not be checked at all (no python3, no jsonschema, a schema that is not valid).
    public struct Unavailable: Error, CustomStringConvertible {
        /// What went wrong, with the validator's own message.
        public var description: String
    }

    /// `docs/schemas/<name>.schema.json`.
    public static func schemaURL(_ name: String) -> URL {
        Fixtures.repositoryRoot.appendingPathComponent("docs/schemas/\(name).schema.json")
    }

    /// Every way `document` breaks schema `name`, one line each (`path: message`); empty when it conforms.
    ///
    /// - Throws: `Unavailable` when python3 or jsonschema is missing, the schema is not a valid draft 2020-12
    ///   schema, or `document` is not JSON.
    public static func violations(of document: String, schema name: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schemaURL(name).path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(document.utf8))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Unavailable(
                description: "schema \(name): exit \(process.terminationStatus): "
                    + String(decoding: complaint, as: UTF8.self))
        }
        return String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Prints one line per violation; exits non-zero only when it cannot check.
    private static let script = """
        import json, sys
        from jsonschema import Draft202012Validator
        with open(sys.argv[1]) as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        document = json.loads(sys.stdin.read())
        for error in sorted(Draft202012Validator(schema).iter_errors(document), key=lambda e: str(e.absolute_path)):
            print("/".join(map(str, error.absolute_path)) or "(root)", ":", error.message)
        """
}
