import Foundation
import Ledger
import NFCTags
import Support
import Synchronization
import TokenKeys

/// A master key inside a PKCS #11 token, as a `KeyCustodian`: AN10922 and HMAC run in the token and only their
/// results reach this process.
///
/// When the token goes away mid-run the operation pauses, reconnects with a ledger outage's backoff (`LedgerOutage`:
/// 0.5 s doubling to 10 s) and runs again, so the tag in the field is not failed for it; an operator's stop (task
/// cancellation) or a refused PIN ends the pause with the error.
final class TokenHeldKey: KeyCustodian {
    let kind: SecretKey.Kind
    let fingerprint: String
    let location: String
    private let uri: PKCS11URI
    private let pin: PinSource?
    private let environment: [String: String]
    private let id: String
    /// The session generation and the key's handle in it.
    private let current: Mutex<(TokenAccess.Entry, TokenKey)>

    init(
        id: String, uri: PKCS11URI, pin: PinSource?, environment: [String: String], entry: TokenAccess.Entry,
        key: TokenKey, fingerprint: String
    ) {
        self.id = id
        self.uri = uri
        self.pin = pin
        self.environment = environment
        self.kind = key.keyType.isHMAC ? .hmac : .aes
        self.fingerprint = fingerprint
        self.location = "token \"\(entry.session.token.label)\", object \"\(key.label)\""
        self.current = Mutex((entry, key))
    }

    func an10922(input: [UInt8]) throws -> [UInt8] {
        try perform { session, key throws(TokenError) in try session.an10922(key: key, input: input) }
    }

    func hmacSHA256(_ message: [UInt8]) throws -> [UInt8] {
        try perform { session, key throws(TokenError) in try session.hmacSHA256(key: key, message) }
    }

    /// Runs `operation` on the token, riding out the token's absence.
    private func perform(
        _ operation: @escaping @Sendable (isolated TokenSession, TokenKey) throws(TokenError) -> [UInt8]
    ) throws -> [UInt8] {
        var pause = LedgerOutage.firstPause
        var lostAt: Date?
        while true {
            let (entry, key) = current.withLock { $0 }
            let result = Result { () throws(TokenError) -> [UInt8] in
                try entry.session.blocking { session throws(TokenError) in try operation(session, key) }
            }
            switch result {
            case .success(let bytes):
                if let lostAt {
                    let pause = String(format: "%.1f", Date().timeIntervalSince(lostAt))
                    TokenAccess.notice("\(location) is back after \(pause) s")
                }
                return bytes
            case .failure(let error):
                guard error.isTokenLost else { throw error }
                if lostAt == nil {
                    lostAt = Date()
                    TokenAccess.notice("\(location) went away (\(error.message)); pausing until it is back")
                }
                try wait(pause.seconds)
                pause = min(pause * 2, LedgerOutage.longestPause)
                try reconnect(after: entry.generation)
            }
        }
    }

    /// Sleeps `seconds` in short steps, throwing `CancellationError` as soon as the operator stops the run.
    private func wait(_ seconds: Double) throws {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            try Task.checkCancellation()
            Thread.sleep(forTimeInterval: min(0.1, max(0, end.timeIntervalSinceNow)))
        }
    }

    /// Reopens the session and finds the key again; a token still away leaves the next try to find out.
    ///
    /// - Throws: what is no absence (a PIN refused now, the key gone from the token): the pause ends with it.
    private func reconnect(after generation: Int) throws(KeyError) {
        do throws(KeyError) {
            let entry = try TokenAccess.reopen(after: generation, uri: uri, pin: pin, environment: environment, id: id)
            let found = Result { () throws(TokenError) -> TokenKey in
                try entry.session.blocking { session throws(TokenError) in try session.findKey(uri) }
            }
            switch found {
            case .success(let key): current.withLock { $0 = (entry, key) }
            case .failure(let error) where error.isTokenLost: return
            case .failure(let error): throw KeyError(id: id, token: error)
            }
        } catch  where error.reason == .tokenUnavailable {
            return
        }
    }
}
