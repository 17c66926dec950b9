internal import CPKCS11
import Support

/// One logged-in session on one token, owned by this actor and used only on its own serial queue.
///
/// As the ledger owns its connection (docs/style.md §4.2), the session runs on a `QueueExecutor`, so blocking
/// PKCS #11 calls (a network HSM answers in milliseconds) never occupy the cooperative pool, and the session's
/// one active operation per kind is never raced. Every operation pairs its `C_*Init` with the one-part call.
/// The PIN is passed as bytes, used once for `C_Login` and never kept or logged. PKCS #11 v2.40 has no way to
/// abort a running call (`C_CancelFunction` is legacy), so cancellation takes effect between calls.
public actor TokenSession {
    let executor: QueueExecutor
    let functions: any PKCS11Functions
    /// Where the module came from, for messages.
    public nonisolated let moduleName: String
    /// The slot the token is in.
    public nonisolated let slot: UInt
    /// The token's information (label, manufacturer, model, serial).
    public nonisolated let token: PKCS11TokenInfo
    /// The session handle; used only on `executor`'s queue.
    var session: UInt
    /// `C_GetMechanismInfo` answers by mechanism (`nil`: not offered), asked once each.
    var mechanisms: [UInt: PKCS11MechanismInfo?] = [:]
    /// `C_GetMechanismList`, asked once.
    var offered: Set<UInt>?
    /// CMAC subkeys (K1, K2) by key handle, for the host-chained paths (docs/reference/pkcs11.md §3).
    var subkeys: [UInt: CMACSubkeys] = [:]

    /// Runs this actor on its own serial queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(
        executor: QueueExecutor, functions: any PKCS11Functions, moduleName: String, slot: UInt,
        token: PKCS11TokenInfo, session: UInt
    ) {
        self.executor = executor
        self.functions = functions
        self.moduleName = moduleName
        self.slot = slot
        self.token = token
        self.session = session
    }

    deinit {
        // The session handle is this actor's alone; closing it from the last reference's thread is safe because the
        // module locks for itself (CKF_OS_LOCKING_OK).
        try? functions.closeSession(session)
    }

    /// Opens a session on the token `uri` names in `module` and logs in with `pin`.
    ///
    /// - Parameters:
    ///   - uri: selects the token by `token`, `serial`, `manufacturer`, `model` and `slot-id` (those present).
    ///   - pin: the user PIN's bytes; `nil` opens a public session (no private keys are visible).
    ///   - readWrite: a read-write session, needed to create keys.
    /// - Throws: `.tokenNotFound` (66), `.ambiguous` (64), `.pinIncorrect` (77), `.tokenLost` (69).
    public static func open(
        module: PKCS11Module, uri: PKCS11URI, pin: [UInt8]?, readWrite: Bool = false
    ) async throws(TokenError) -> TokenSession {
        try await open(functions: module.functions, moduleName: module.path, uri: uri, pin: pin, readWrite: readWrite)
    }

    /// Opens a session through `functions` (a loaded module's, or a test's fake); see `open(module:uri:pin:)`.
    public static func open(
        functions: any PKCS11Functions, moduleName: String, uri: PKCS11URI, pin: [UInt8]?, readWrite: Bool = false
    ) async throws(TokenError) -> TokenSession {
        let executor = QueueExecutor(label: "pkcs11 \(uri.token ?? moduleName)")
        let opened = await withCheckedContinuation { (continuation: CheckedContinuation<OpenResult, Never>) in
            executor.async {
                continuation.resume(
                    returning: OpenResult {
                        () throws(TokenError) in
                        try connect(functions: functions, moduleName: moduleName, uri: uri, pin: pin, rw: readWrite)
                    })
            }
        }
        return try made(opened, executor: executor, functions: functions, moduleName: moduleName)
    }

    /// Opens a session as `open(functions:moduleName:uri:pin:readWrite:)` does, waiting on the calling thread: for
    /// synchronous callers such as key loading at a command's start.
    public static func openBlocking(
        functions: any PKCS11Functions, moduleName: String, uri: PKCS11URI, pin: [UInt8]?, readWrite: Bool = false
    ) throws(TokenError) -> TokenSession {
        let executor = QueueExecutor(label: "pkcs11 \(uri.token ?? moduleName)")
        let opened = executor.sync {
            OpenResult { () throws(TokenError) in
                try connect(functions: functions, moduleName: moduleName, uri: uri, pin: pin, rw: readWrite)
            }
        }
        return try made(opened, executor: executor, functions: functions, moduleName: moduleName)
    }

    /// The session `connect` opened on `executor`'s queue, or its error: the end both `open`s share.
    private static func made(
        _ opened: OpenResult, executor: QueueExecutor, functions: any PKCS11Functions, moduleName: String
    ) throws(TokenError) -> TokenSession {
        let (slot, token, session) = try opened.get()
        return TokenSession(
            executor: executor, functions: functions, moduleName: moduleName, slot: slot, token: token,
            session: session)
    }

    /// Runs `body` on the session's own queue and waits for it: the synchronous path a tag step takes to derive a
    /// key in the token (the tag pipeline is synchronous). Never call it from the session's queue.
    public nonisolated func blocking<T: Sendable>(
        _ body: @Sendable (isolated TokenSession) throws(TokenError) -> T
    ) throws(TokenError) -> T {
        let result: Result<T, TokenError> = executor.sync {
            assumeIsolated { session in Result { () throws(TokenError) in try body(session) } }
        }
        return try result.get()
    }

    private typealias OpenResult = Result<(UInt, PKCS11TokenInfo, UInt), TokenError>

    /// Finds the token, opens the session and logs in; runs on the new session's queue.
    private static func connect(
        functions: any PKCS11Functions, moduleName: String, uri: PKCS11URI, pin: [UInt8]?, rw: Bool
    ) throws(TokenError) -> (UInt, PKCS11TokenInfo, UInt) {
        let wanted = describe(uri)
        var matches: [(UInt, PKCS11TokenInfo)] = []
        let slots: [UInt]
        do { slots = try functions.slotList() } catch { throw TokenError.from(error, "C_GetSlotList in \(moduleName)") }
        for slot in slots where uri.slotID.map({ $0 == slot }) ?? true {
            let info: PKCS11TokenInfo
            do { info = try functions.tokenInfo(slot: slot) } catch { continue }  // token gone meanwhile
            guard uri.token.map({ $0 == info.label }) ?? true, uri.serial.map({ $0 == info.serial }) ?? true,
                uri.manufacturer.map({ $0 == info.manufacturer }) ?? true, uri.model.map({ $0 == info.model }) ?? true
            else { continue }
            matches.append((slot, info))
        }
        guard let (slot, info) = matches.first else {
            throw TokenError(.tokenNotFound, "no token matching \(wanted) in PKCS #11 module \(moduleName)")
        }
        guard matches.count == 1 else {
            let labels = matches.map { "\"\($0.1.label)\" (serial \($0.1.serial))" }.joined(separator: ", ")
            throw TokenError(.ambiguous, "\(matches.count) tokens match \(wanted): \(labels); add token= or serial=")
        }
        let session: UInt
        do { session = try functions.openSession(slot: slot, readWrite: rw) } catch {
            throw TokenError.from(error, "C_OpenSession on token \"\(info.label)\"")
        }
        if let pin {
            do { try functions.login(session: session, pin: pin) } catch {
                try? functions.closeSession(session)
                throw TokenError.from(error, "C_Login on token \"\(info.label)\"")
            }
        }
        return (slot, info, session)
    }

    /// The token-selecting attributes of `uri` in words, for messages (never the PIN source's content).
    static func describe(_ uri: PKCS11URI) -> String {
        let parts = [
            uri.token.map { "token=\($0)" }, uri.serial.map { "serial=\($0)" },
            uri.manufacturer.map { "manufacturer=\($0)" }, uri.model.map { "model=\($0)" },
            uri.slotID.map { "slot-id=\($0)" },
        ].compactMap { $0 }
        return parts.isEmpty ? "any token" : parts.joined(separator: ";")
    }

    /// Closes the session (the actor's `deinit` does it too). Later calls fail as `.tokenLost`.
    public func close() {
        try? functions.closeSession(session)
        session = UInt(CK_INVALID_HANDLE)
    }

    /// Forgets the session handle without `C_CloseSession`, before its module is finalised and initialised again:
    /// the handle number may be reused by the next session, which a late close would then end. Later calls fail as
    /// `.tokenLost`.
    public func invalidate() {
        session = UInt(CK_INVALID_HANDLE)
    }

    /// Runs `call`, turning a `CKR_*` into a `TokenError` that says what was being done.
    func run<T>(_ operation: @autoclosure () -> String, _ call: () throws(PKCS11Status) -> T) throws(TokenError) -> T {
        assert(executor.isCurrent, "PKCS #11 calls must run on the session's own queue")
        do { return try call() } catch { throw TokenError.from(error, operation()) }
    }

    /// What the token offers for `mechanism` (`nil`: not offered), asked once per session.
    ///
    /// A mechanism must be in `C_GetMechanismList` as well as answered by `C_GetMechanismInfo`: SoftHSM2 answers
    /// the second even for mechanisms its configuration turned off (docs/reference/pkcs11.md §3).
    func mechanismInfo(_ mechanism: UInt) -> PKCS11MechanismInfo? {
        if let known = mechanisms[mechanism] { return known }
        if offered == nil { offered = Set((try? functions.mechanismList(slot: slot)) ?? []) }
        let listed = offered?.contains(mechanism) ?? false
        let info = listed ? try? functions.mechanismInfo(slot: slot, mechanism: mechanism) : nil
        mechanisms[mechanism] = .some(info)
        return info
    }

    /// Whether the token offers `mechanism` for `flag` (`CKF_SIGN`, `CKF_ENCRYPT`, …) with `key`'s length.
    func offers(_ mechanism: UInt, _ flag: UInt, for key: TokenKey) -> Bool {
        guard let info = mechanismInfo(mechanism), info.flags & flag != 0 else { return false }
        guard let length = key.valueLength.map(UInt.init) else { return true }
        return info.maxKeySize == 0 || (info.minKeySize...max(info.minKeySize, info.maxKeySize)).contains(length)
    }
}
