import Foundation
import Support

/// A broker user name and password, read from an owner-only file (`@FILE`) or an environment variable
/// (`env:VAR`) holding one `user:password` line; never from the command line, never printed.
public struct MQTTCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The user name (may be shown).
    public let user: String
    /// The password (never shown: not in `description`, not in errors).
    public let password: String

    /// The accepted forms, for usage messages.
    public static let forms = "@FILE or env:VARIABLE (one user:password line)"

    /// Credentials given directly (tests, a manifest's already-loaded secret).
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// Loads credentials from `source`: `@FILE` (read through `OwnerOnlyFile`: mode 0600, owner, folder) or
    /// `env:VAR` (looked up in `environment`).
    ///
    /// - Throws: `MQTTError` `.invalidConfiguration` (another form: a literal value is refused without echoing
    ///   it), `.credentialsMissing`, `.credentialsUnsafe` (file readable or replaceable by others),
    ///   `.credentialsMalformed` (not one `user:password` line).
    public init(source: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(MQTTError)
    {
        var bytes: [UInt8]
        let origin: String
        if source.hasPrefix("@"), source.count > 1 {
            let path = String(source.dropFirst())
            origin = "credentials file \(path)"
            do {
                bytes = try OwnerOnlyFile.read(URL(fileURLWithPath: path), what: "credentials file")
            } catch {
                switch error.reason {
                case .permissions: throw MQTTError(.credentialsUnsafe, error.message)
                case .missing, .unreadable: throw MQTTError(.credentialsMissing, error.message)
                }
            }
        } else if source.hasPrefix("env:"), source.count > 4 {
            let name = String(source.dropFirst(4))
            origin = "environment variable \(name)"
            guard let value = environment[name], !value.isEmpty else {
                throw MQTTError(.credentialsMissing, "the environment variable \(name) is not set")
            }
            bytes = Array(value.utf8)
        } else {
            throw MQTTError(
                .invalidConfiguration,
                "credentials are taken from \(Self.forms), not as a value: a password on the command line is "
                    + "visible to every user of this machine (ps, /proc)")
        }
        defer { SecretBytes.wipe(&bytes) }
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon < bytes.count - 1,
            !bytes.contains(0x0A), !bytes.contains(0x0D), !bytes.contains(0)
        else {
            throw MQTTError(
                .credentialsMalformed, "the \(origin) does not hold one user:password line (both parts non-empty)")
        }
        guard let user = String(validating: bytes[..<colon], as: UTF8.self),
            let password = String(validating: bytes[(colon + 1)...], as: UTF8.self)
        else { throw MQTTError(.credentialsMalformed, "the \(origin) is not UTF-8 text") }
        self.user = user
        self.password = password
    }

    /// `user:***`: the password is never shown.
    public var description: String { "\(user):***" }
}

extension MQTTCredentials: CustomDebugStringConvertible, CustomReflectable {
    /// As `description`: `debugPrint` and string interpolation of a dump never show the password.
    public var debugDescription: String { description }
    /// The user name only, so `dump` never shows the password.
    public var customMirror: Mirror { Mirror(self, children: ["user": user]) }
}
