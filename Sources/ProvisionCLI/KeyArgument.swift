import Foundation
import Provisioning
import TokenKeys

/// A key named on the command line: `KEYID=@FILE`, `KEYID=env:VAR` or `KEYID=pkcs11:URI`, never the key itself.
///
/// A value on the command line is in /proc/PID/cmdline, readable by every user of the machine, and
/// in shell histories; so every command that takes a key takes it from a file or the environment.
struct KeyArgument: Sendable, Hashable {
    /// The key id (as in the manifest's `keys`).
    var id: String
    /// Where the key is.
    var source: KeySource

    /// The accepted forms, for usage messages.
    static let forms = "@FILE, env:VARIABLE or pkcs11:URI"

    /// Parses `KEYID=@FILE` / `KEYID=env:VAR` / `KEYID=pkcs11:URI` (`option` names the option in errors).
    ///
    /// - Throws: `CLIError` 64 for any other form; a raw key value is refused without echoing it.
    init(_ text: String, option: String) throws(CLIError) {
        guard let equals = text.firstIndex(of: "="), !text.hasPrefix("@"), !text.hasPrefix("env:"),
            !text.hasPrefix("pkcs11:")
        else {
            throw .usage("--\(option) takes KEYID=\(Self.forms)")
        }
        id = String(text[..<equals])
        source = try Self.source(String(text[text.index(after: equals)...]), option: option, form: "KEYID=")
        if id.isEmpty { throw .usage("--\(option): the key id before '=' is empty") }
    }

    /// Parses `@FILE` / `env:VAR` / `pkcs11:URI` (a key without an id, such as `verify-url --meta-key`).
    ///
    /// A URI's PIN comes from its `pin-source`, never from the command line: a URI with `pin-value` is refused.
    /// - Throws: `CLIError` 64 for any other form; a raw key value is refused without echoing it.
    static func source(_ value: String, option: String, form: String = "") throws(CLIError) -> KeySource {
        if value.hasPrefix("pkcs11:") {
            do { _ = try PKCS11URI(value) } catch { throw .usage("--\(option): \(error.message)") }
            return .token(value)
        }
        if value.hasPrefix("@"), value.count > 1 { return .file(URL(fileURLWithPath: String(value.dropFirst()))) }
        if value.hasPrefix("env:"), value.count > 4 { return .environment(String(value.dropFirst(4))) }
        throw .usage(
            "--\(option) takes \(form)\(Self.forms), not a key value: a key on the command line is visible to "
                + "every user of this machine (ps, /proc); put it in an owner-only file or an environment variable")
    }
}
