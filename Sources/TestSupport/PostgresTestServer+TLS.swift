import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL server with `ssl=on` that also listens on TCP at 127.0.0.1, for the tests of a ledger
/// reached over the network (docs/stations.md, "TLS").
///
/// Its certificate is made by the test with the `openssl` command line: a test CA signs a server certificate for
/// the name `localhost` only (no IP address), so `host=127.0.0.1` is a wrong host name for it. A second CA that
/// signed nothing stands for a wrong pin. The files live in the server's folder and go with it at exit.
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
        try makeCertificates(in: certificates)
        let port = try freePort()
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

    /// Makes `ca.crt`, `other-ca.crt` and `server.crt`/`server.key` (CN and SAN `localhost`) in `folder`.
    private static func makeCertificates(in folder: String) throws(HarnessError) {
        let openssl = "/usr/bin/openssl"
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for ca in ["ca", "other-ca"] {
            try PostgresTestServer.run(
                openssl,
                ["req", "-x509"] + key + [
                    "-keyout", "\(folder)/\(ca).key", "-out", "\(folder)/\(ca).crt", "-days", "2",
                    "-subj", "/CN=provision test \(ca)", "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                ])
        }
        try PostgresTestServer.run(
            openssl,
            ["req"] + key + [
                "-keyout", "\(folder)/server.key", "-out", "\(folder)/server.csr", "-subj", "/CN=localhost",
            ])
        let extensions = folder + "/server.ext"
        let text = "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
        guard FileManager.default.createFile(atPath: extensions, contents: Data(text.utf8)) else {
            throw HarnessError("cannot write \(extensions)")
        }
        try PostgresTestServer.run(
            openssl,
            [
                "x509", "-req", "-in", "\(folder)/server.csr", "-CA", "\(folder)/ca.crt", "-CAkey",
                "\(folder)/ca.key", "-CAcreateserial", "-out", "\(folder)/server.crt", "-days", "2",
                "-extfile", extensions,
            ])
    }

    /// A TCP port on 127.0.0.1 nothing listens on now (the kernel's pick for port 0).
    private static func freePort() throws(HarnessError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw HarnessError("cannot pick a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
