internal import CPKCS11
import Foundation
import Synchronization

/// A PKCS #11 module (shared library) loaded once per path per process, initialised, and finalised at exit.
///
/// Loading is `dlopen(path, RTLD_NOW | RTLD_LOCAL)`, `dlsym("C_GetFunctionList")` and `C_Initialize` with
/// `CKF_OS_LOCKING_OK` and no mutex callbacks, so the library may be called from several threads (PKCS #11
/// v2.40 base §5.4). The module is never linked: its path comes from the key's URI (`module-path`) or
/// `PROVISION_PKCS11_MODULE`, with no default (docs/reference/pkcs11.md §2). A second `load` of the same path
/// returns the same module; `C_Finalize` runs for every loaded module when the process exits (`atexit`),
/// before the module's own static destructors.
/// The library handle is never `dlclose`d: the module's own threads and atexit handlers may still refer to it.
///
/// Sendable: the stored values are immutable, and the function list may be called from any thread (see
/// `PKCS11FunctionList`).
public final class PKCS11Module: Sendable {
    /// The path the module was loaded from.
    public let path: String
    /// The module's calls.
    public let functions: any PKCS11Functions
    /// The loaded function list, for `C_Finalize` at exit.
    private let list: PKCS11FunctionList

    private init(path: String, list: PKCS11FunctionList) {
        self.path = path
        self.list = list
        self.functions = list
    }

    /// Every module loaded in this process, by path.
    private static let loaded = Mutex<[String: PKCS11Module]>([:])

    /// The module at `path`, loaded and initialised on the first call for that path.
    ///
    /// SoftHSM2 reads its configuration (`SOFTHSM2_CONF`) and p11-kit's client its server address
    /// (`P11_KIT_SERVER_ADDRESS`) during `C_Initialize`, that is during the first `load` of a path: set the
    /// environment before it.
    /// - Throws: `.moduleUnavailable` (69) when the file cannot be loaded, has no `C_GetFunctionList`, lacks a
    ///   function this layer calls, or `C_Initialize` fails.
    public static func load(path: String) throws(TokenError) -> PKCS11Module {
        try loaded.withLock { modules throws(TokenError) -> PKCS11Module in
            if let module = modules[path] { return module }
            let module = try open(path: path)
            // Registered after each dlopen, so it runs before the destructors the module registered while loading
            // (atexit handlers run in reverse order); the first to run finalises every module, later ones none.
            atexit { PKCS11Module.finalizeAll() }
            modules[path] = module
            return module
        }
    }

    private static func open(path: String) throws(TokenError) -> PKCS11Module {
        ignoreBrokenPipes()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw TokenError(.moduleUnavailable, "cannot load PKCS #11 module \(path): \(reason)")
        }
        guard let symbol = dlsym(handle, "C_GetFunctionList") else {
            throw TokenError(.moduleUnavailable, "\(path) is not a PKCS #11 module (no C_GetFunctionList)")
        }
        let getFunctionList = unsafeBitCast(symbol, to: CK_C_GetFunctionList.self)
        var pointer: CK_FUNCTION_LIST_PTR? = nil
        let rv = getFunctionList(&pointer)
        guard rv == CKR_OK, let pointer else {
            let status = PKCS11Status(rawValue: UInt(rv))
            throw TokenError(
                .moduleUnavailable, "C_GetFunctionList of PKCS #11 module \(path) failed: \(status)", status: status)
        }
        let missing = PKCS11FunctionList.missingEntries(pointer)
        guard missing.isEmpty else {
            throw TokenError(
                .moduleUnavailable,
                "PKCS #11 module \(path) lacks \(missing.joined(separator: ", ")), which provision calls")
        }
        var arguments = CK_C_INITIALIZE_ARGS()
        arguments.flags = CK_FLAGS(CKF_OS_LOCKING_OK)
        let initialized = pointer.pointee.C_Initialize(&arguments)
        guard initialized == CKR_OK || initialized == CKR_CRYPTOKI_ALREADY_INITIALIZED else {
            let status = PKCS11Status(rawValue: UInt(initialized))
            throw TokenError(
                .moduleUnavailable, "C_Initialize of PKCS #11 module \(path) failed: \(status)", status: status)
        }
        return PKCS11Module(path: path, list: PKCS11FunctionList(list: pointer))
    }

    /// Finalises and initialises the module again, after its token went away: p11-kit's client and network HSMs
    /// reconnect only on `C_Initialize` (docs/reference/pkcs11.md §7). Every session of the module is gone after it.
    ///
    /// - Throws: `.tokenLost` (69) while the module cannot initialise (its server is still away).
    public func reinitialize() throws(TokenError) {
        let functions = list.list.pointee
        _ = functions.C_Finalize(nil)
        var arguments = CK_C_INITIALIZE_ARGS()
        arguments.flags = CK_FLAGS(CKF_OS_LOCKING_OK)
        let initialized = functions.C_Initialize(&arguments)
        guard initialized == CKR_OK || initialized == CKR_CRYPTOKI_ALREADY_INITIALIZED else {
            let status = PKCS11Status(rawValue: UInt(initialized))
            throw TokenError(.tokenLost, "C_Initialize of PKCS #11 module \(path) failed: \(status)", status: status)
        }
    }

    /// Makes a write to a closed socket an error instead of the end of the process: a module that talks to its
    /// HSM over a socket (p11-kit's client, network HSMs) would otherwise die of SIGPIPE when the HSM goes away,
    /// where the line must pause and reconnect. A handler the process installed itself is left alone.
    static func ignoreBrokenPipes() {
        var current = sigaction()
        guard sigaction(SIGPIPE, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return }
        signal(SIGPIPE, SIG_IGN)
    }

    /// `C_Finalize` for every loaded module; the registry's `atexit` handler. Later calls find nothing to do.
    static func finalizeAll() {
        let modules = loaded.withLock { modules in
            defer { modules.removeAll() }
            return Array(modules.values)
        }
        for module in modules { _ = module.list.list.pointee.C_Finalize(nil) }
    }
}
