import Foundation
import Synchronization

/// A private SoftHSM2 token for one test: its own folder, configuration, token and copy of the module.
///
/// SoftHSM2 reads its configuration (`SOFTHSM2_CONF`) once, in `C_Initialize`, and a module path is loaded once
/// per process, so one process-wide SoftHSM2 could serve only the tokens that existed when it was initialised
/// (docs/reference/pkcs11.md §7). Each token therefore gets its own copy of `libsofthsm2.so` in its folder:
/// `dlopen` of another file is another instance of the library, with its own configuration. Tests run in
/// parallel; only "set the environment, then load the module" is serialised, by `withModuleEnvironment`.
///
/// The token is made with `softhsm2-util --init-token --free` (user PIN `userPIN`, SO PIN `soPIN`; test
/// PINs only). It holds no keys: tests import theirs through the token layer, as sensitive non-extractable
/// private objects. `restrictMechanisms` writes SoftHSM2's `slots.mechanisms` allow-list, which turns the other
/// mechanisms off, to model an HSM without AES-CMAC. `softhsm2` missing fails with the install command.
public final class SoftHSMToken: Sendable {
    /// The token's folder (configuration, token directory, module copy).
    public let directory: String
    /// The configuration file (`SOFTHSM2_CONF`).
    public let configPath: String
    /// The token label.
    public let label: String
    /// This token's private copy of the SoftHSM2 module.
    public let modulePath: String
    /// The user PIN (a test PIN).
    public let userPIN = "1234"
    /// The security officer PIN (a test PIN).
    public let soPIN = "12345678"

    /// The SoftHSM2 module installed by Debian's `libsofthsm2` (either path).
    public static let systemModule: String? = [
        "/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so",
        "/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so",
    ].first { FileManager.default.fileExists(atPath: $0) }.map {
        URL(fileURLWithPath: $0).resolvingSymlinksInPath().path  // a copy of the file, not of a relative link
    }

    private init(directory: String, label: String) {
        self.directory = directory
        self.configPath = directory + "/softhsm2.conf"
        self.label = label
        self.modulePath = directory + "/libsofthsm2.so"
    }

    /// Makes a folder, configuration and initialised token labelled `label`.
    ///
    /// - Parameter restrictMechanisms: SoftHSM2 mechanism names to allow (all others off), e.g.
    ///   `["CKM_AES_ECB", "CKM_AES_CBC", "CKM_SHA256_HMAC"]`; `nil` for all.
    /// - Throws: `HarnessError` when softhsm2 is not installed or the token cannot be made.
    public static func make(label: String = "provision-test", restrictMechanisms: [String]? = nil) throws
        -> SoftHSMToken
    {
        guard let systemModule, FileManager.default.isExecutableFile(atPath: "/usr/bin/softhsm2-util") else {
            throw HarnessError("SoftHSM2 is not installed: make test-deps (apt-get install softhsm2)")
        }
        var template = Array("/tmp/hsm.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: errno \(errno)") }
        let token = SoftHSMToken(directory: String(cString: made), label: label)
        let tokens = token.directory + "/tokens"
        try FileManager.default.createDirectory(atPath: tokens, withIntermediateDirectories: false)
        var config = "directories.tokendir = \(tokens)\nobjectstore.backend = file\nlog.level = ERROR\n"
        if let restrictMechanisms { config += "slots.mechanisms = \(restrictMechanisms.joined(separator: ","))\n" }
        try config.write(toFile: token.configPath, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: systemModule, toPath: token.modulePath)
        try token.util(["--init-token", "--free", "--label", label, "--so-pin", token.soPIN, "--pin", token.userPIN])
        return token
    }

    /// Runs `softhsm2-util` on this token's configuration.
    @discardableResult
    public func util(_ arguments: [String]) throws -> String {
        try PostgresTestServer.run(
            "/usr/bin/env", ["SOFTHSM2_CONF=\(configPath)", "/usr/bin/softhsm2-util"] + arguments)
    }

    /// Calls `body` with this token's module path while `SOFTHSM2_CONF` names this token's configuration,
    /// serialised with every other module load of the process: load the module (`C_Initialize`) inside.
    public func withModuleEnvironment<T>(_ body: (String) throws -> T) rethrows -> T {
        try ModuleEnvironment.with(["SOFTHSM2_CONF": configPath]) { try body(modulePath) }
    }

    /// Removes the token's folder (the loaded module copy stays mapped until the process ends).
    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Serialises "set environment variables, then load a PKCS #11 module" across a test process: modules read
/// their settings from the environment during `C_Initialize`, and `setenv` is process-wide.
public enum ModuleEnvironment {
    private static let lock = Mutex<Void>(())

    /// Sets `variables`, runs `body` and leaves them set (a module may read them again later, for example
    /// p11-kit's client on reconnecting), all under one process-wide lock.
    public static func with<T>(_ variables: [String: String], _ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in
            for (name, value) in variables { setenv(name, value, 1) }
            return try body()
        }
    }
}
