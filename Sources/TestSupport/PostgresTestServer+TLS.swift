import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL server with `ssl=on` that also listens on TCP at 127.0.0.1, for the tests of a ledger
/// reached over the network (docs/stations.md, "TLS").
///
/// Its certificate is made by the test with the `openssl` command line (`TestCertificates`): a test CA signs a
/// server certificate for the name `localhost` only (no IP address), so `host=127.0.0.1` is a wrong host name for
/// it. A second CA that signed nothing stands for a wrong pin. The files live in the server's folder and go with it
/// at exit.
public struct PostgresTLSServer: Sendable {
    /// The server; `createDatabase()` works over its Unix socket as for the shared one.
    public let server: PostgresTestServer
    /// The CA certificate that signed the server's certificate (`sslrootcert=`).
    public let caFile: String
    /// A CA certificate that did not sign the server's certificate.
    public let otherCAFile: String

    private static let started = Mutex<Result<PostgresTLSServer, HarnessError>?>(nil)

    /// The process's TLS server, started on the first call.
    /// - Throws: `HarnessError` with the failing command's output when openssl or the server fails.
    public static func shared() throws -> PostgresTLSServer {
        try started.withLock { stored -> Result<PostgresTLSServer, HarnessError> in
            if let stored { return stored }
            let outcome = Result { () throws(HarnessError) -> PostgresTLSServer in try start() }
            stored = outcome
            return outcome
        }.get()
    }

    /// The TCP port the server listens on at 127.0.0.1.
    public var port: Int { server.port }

    /// A new empty database and the key=value settings that name it over TCP, without any `ssl…` setting:
    /// `host=localhost hostaddr=127.0.0.1 port=P user=ledger dbname=D`.
    public func createDatabase() throws -> (name: String, tcp: String) {
        let local = try server.createDatabase()
        let name = local.split(separator: " ").first { $0.hasPrefix("dbname=") }.map { String($0.dropFirst(7)) } ?? ""
        return (name, "host=localhost hostaddr=127.0.0.1 port=\(port) user=ledger dbname=\(name)")
    }

    private static func start() throws(HarnessError) -> PostgresTLSServer {
        var template = Array("/tmp/pgc.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: errno \(errno)") }
        let certificates = String(cString: made)
        chmod(certificates, 0o755)
        try TestCertificates.make(in: certificates)
        let port = try TCPPort.free()
        let server = try PostgresTestServer.start(
            port: port,
            options: "-c listen_addresses=127.0.0.1 -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key"
        ) { data, owner throws(HarnessError) in
            for name in ["server.crt", "server.key"] {
                let target = data + "/" + name
                do {
                    try FileManager.default.copyItem(atPath: certificates + "/" + name, toPath: target)
                } catch {
                    throw HarnessError("cannot copy \(name) into \(data): \(error)")
                }
                chmod(target, 0o600)
                if let owner { chown(target, owner.uid, owner.gid) }
            }
        }
        return PostgresTLSServer(
            server: server, caFile: certificates + "/ca.crt", otherCAFile: certificates + "/other-ca.crt")
    }
}
