import Foundation
import NFCTags
import Support
import Synchronization
import TokenKeys

/// Where a token's user PIN comes from: never the command line (docs/keys.md).
public enum PinSource: Sendable, Hashable {
    /// A file holding the PIN (owner-only, in a folder others cannot write, checked like key files).
    case file(URL)
    /// An environment variable holding the PIN.
    case environment(String)
}

/// Opens the tokens keys are named in: one logged-in session per token per process, shared by every key and command
/// that names the same module and token, and reopened after the token went away.
///
/// The PIN is read from its source when a session is opened, passed to `C_Login` and dropped; a reconnection reads
/// it again rather than keeping it.
public enum TokenAccess {
    /// One token's session and how many times it was reopened.
    struct Entry {
        var session: TokenSession
        var generation: Int
    }

    private static let sessions = Mutex<[String: Entry]>([:])
    /// Hears that a token went away and came back (the operator's warnings); set once by the command layer.
    private static let noticeSink = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Sends token notices ("token … went away; pausing", "… back after 3.2 s") to `sink`.
    public static func setNotices(_ sink: @escaping @Sendable (String) -> Void) { noticeSink.withLock { $0 = sink } }

    static func notice(_ text: String) { noticeSink.withLock { $0 }?(text) }

    /// The session on the token `uri` names, opened and logged in on the first call for that module and token.
    ///
    /// - Parameters:
    ///   - pin: the PIN's source when the URI has no `pin-source`; with neither, the session is public.
    ///   - id: the key id messages name.
    /// - Throws: `KeyError` naming `id`: the module (69), the token (66), the PIN (77), the URI (64).
    public static func session(
        uri: PKCS11URI, pin: PinSource?, environment: [String: String], id: String, readWrite: Bool = false
    ) throws(KeyError) -> TokenSession {
        try entry(uri: uri, pin: pin, environment: environment, id: id, readWrite: readWrite).session
    }

    static func entry(
        uri: PKCS11URI, pin: PinSource?, environment: [String: String], id: String, readWrite: Bool = false
    ) throws(KeyError) -> Entry {
        let module = try modulePath(uri, environment: environment, id: id)
        let name = key(module: module, uri: uri, readWrite: readWrite)
        return try sessions.withLock { entries throws(KeyError) -> Entry in
            if let known = entries[name] { return known }
            let session = try open(module: module, uri: uri, pin: pin, environment: environment, id: id, rw: readWrite)
            let entry = Entry(session: session, generation: 0)
            entries[name] = entry
            return entry
        }
    }

    /// Reopens the session after generation `lost` failed with the token gone (finalise and initialise the module,
    /// log in again with the PIN read afresh); a caller that finds it reopened already gets the new one.
    ///
    /// - Throws: `KeyError` as `session` does; `.tokenUnavailable` while the token is still away.
    static func reopen(
        after lost: Int, uri: PKCS11URI, pin: PinSource?, environment: [String: String], id: String
    ) throws(KeyError) -> Entry {
        let module = try modulePath(uri, environment: environment, id: id)
        let name = key(module: module, uri: uri, readWrite: false)
        return try sessions.withLock { entries throws(KeyError) -> Entry in
            if let known = entries[name], known.generation != lost { return known }
            // Finalising the module ends every session; the old handle must not close a new one that reuses it.
            if let known = entries[name] { try? known.session.blocking { $0.invalidate() } }
            do throws(TokenError) {
                try PKCS11Module.load(path: module).reinitialize()
            } catch {
                throw KeyError(id: id, token: error)
            }
            let session: TokenSession
            do throws(KeyError) {
                session = try open(module: module, uri: uri, pin: pin, environment: environment, id: id, rw: false)
            } catch  where error.reason == .missing {
                // A module that answers before its token is back (p11-kit's client with no server) lists no token.
                throw KeyError(id: id, reason: .tokenUnavailable, message: error.message)
            }
            let entry = Entry(session: session, generation: lost + 1)
            entries[name] = entry
            return entry
        }
    }

    private static func open(
        module path: String, uri: PKCS11URI, pin: PinSource?, environment: [String: String], id: String, rw: Bool
    ) throws(KeyError) -> TokenSession {
        var pinBytes = try readPIN(uri: uri, pin: pin, environment: environment, id: id)
        defer { if pinBytes != nil { SecretBytes.wipe(&pinBytes!) } }  // C_Login is done with it (docs/keys.md)
        do {
            let module = try PKCS11Module.load(path: path)
            return try TokenSession.openBlocking(
                functions: module.functions, moduleName: path, uri: uri, pin: pinBytes, readWrite: rw)
        } catch {
            throw KeyError(id: id, token: error)
        }
    }

    private static func modulePath(_ uri: PKCS11URI, environment: [String: String], id: String) throws(KeyError)
        -> String
    {
        do { return try uri.resolvedModulePath(environment: environment) } catch {
            throw KeyError(id: id, token: error)
        }
    }

    /// The session's name: the module and the token-selecting attributes (never the PIN source).
    private static func key(module: String, uri: PKCS11URI, readWrite: Bool) -> String {
        var selector = uri
        selector.object = nil
        selector.id = nil
        selector.type = nil
        selector.pinSource = nil
        selector.modulePath = nil
        return "\(module)|\(String(describing: selector))|\(readWrite ? "rw" : "ro")"
    }

    /// The PIN's bytes from the URI's `pin-source` (`file:` URI or path) or `pin`, without a trailing line end.
    ///
    /// - Throws: `KeyError` `.permissions` (a PIN file others can read), `.missing`, `.unreadable`; `.usage` when
    ///   both the URI and the key entry name a PIN.
    static func readPIN(uri: PKCS11URI, pin: PinSource?, environment: [String: String], id: String) throws(KeyError)
        -> [UInt8]?
    {
        var source = pin
        if let text = uri.pinSource {
            guard pin == nil else {
                throw KeyError(
                    id: id, reason: .usage,
                    message: "the PKCS #11 URI has pin-source and the key entry has \"pin\": give one of them")
            }
            let path = text.hasPrefix("file:") ? String(text.dropFirst("file:".count)) : text
            let unescaped = path.hasPrefix("//") ? String(path.dropFirst(2)) : path
            source = .file(URL(fileURLWithPath: unescaped.removingPercentEncoding ?? unescaped))
        }
        var bytes: [UInt8]
        switch source {
        case nil:
            return nil
        case .file(let url):
            bytes = try KeyFile.read(url, id: id, what: "PIN file")
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else {
                throw KeyError(id: id, reason: .missing, message: "PIN environment variable \(name) is not set")
            }
            bytes = Array(value.utf8)
        }
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard !bytes.isEmpty else { throw KeyError(id: id, reason: .malformed, message: "the PIN source is empty") }
        return bytes
    }
}

extension KeyError {
    /// A token failure for key `id`, with the reason that gives its exit code (`TokenError.Code.exitStatus`).
    init(id: String, token error: TokenError) {
        let reason: Reason =
            switch error.code {
            case .pinIncorrect: .permissions
            case .tokenNotFound, .objectNotFound: .missing
            case .badURI, .ambiguous: .usage
            case .keyUnsuitable: .malformed
            case .moduleUnavailable, .mechanismNotOffered, .tokenLost: .tokenUnavailable
            default: .tokenFailure
            }
        self.init(id: id, reason: reason, message: error.message)
    }
}
