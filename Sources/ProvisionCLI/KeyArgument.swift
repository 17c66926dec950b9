import Foundation
import Provisioning

/// A key named on the command line: `KEYID=@FILE` or `KEYID=env:VAR`, never the key itself.
///
/// A value on the command line is in /proc/PID/cmdline, readable by every user of the machine, and
/// in shell histories; so every command that takes a key takes it from a file or the environment.
struct KeyArgument: Sendable, Hashable {
    /// The key id (as in the manifest's `keys`).
    var id: String
    /// Where the key is.
    var source: KeySource

    /// The accepted forms, for usage messages.
    static let forms = "@FILE or env:VARIABLE"

    /// Parses `KEYID=@FILE` / `KEYID=env:VAR` (`option` names the option in errors).
    ///
    /// - Throws: `CLIError` 64 for any other form; a raw key value is refused without echoing it.
    init(_ text: String, option: String) throws(CLIError) {
        guard let equals = text.firstIndex(of: "="), !text.hasPrefix("@"), !text.hasPrefix("env:") else {
            throw .usage("--\(option) takes KEYID=\(Self.forms)")
        }
        id = String(text[..<equals])
        let value = text[text.index(after: equals)...]
        if value.hasPrefix("@"), value.count > 1 {
            source = .file(URL(fileURLWithPath: String(value.dropFirst())))
        } else if value.hasPrefix("env:"), value.count > 4 {
            source = .environment(String(value.dropFirst(4)))
        } else {
            throw .usage(
                "--\(option) takes KEYID=\(Self.forms), not a key value: a key on the command line is visible to "
                    + "every user of this machine (ps, /proc); put it in an owner-only file or an environment variable")
        }
        if id.isEmpty { throw .usage("--\(option): the key id before '=' is empty") }
    }
}
