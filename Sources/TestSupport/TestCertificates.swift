import Foundation

/// A throwaway test CA and a server certificate it signed, made with the `openssl` command line, for the tests of a
/// TLS server (the PostgreSQL ledger's, nginx in front of `serve`): `ca.crt` signs `server.crt`/`server.key` for one
/// DNS name only; `other-ca.crt` signed nothing (a wrong pin). Valid for two days; the caller owns the folder.
public enum TestCertificates {
    /// Makes `ca.crt`, `other-ca.crt` and `server.crt`/`server.key` (CN and SAN `name`) in `folder`.
    ///
    /// - Throws: `HarnessError` with openssl's output when a step fails.
    public static func make(in folder: String, name: String = "localhost") throws(HarnessError) {
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
        try sign(
            "server", name: name, in: folder, extensions: "subjectAltName=DNS:\(name)\nextendedKeyUsage=serverAuth")
    }

    /// Makes `client.crt`/`client.key` (CN `name`, signed by `ca.crt` of an earlier `make`), the key owner-only, for
    /// a server that asks for a client certificate.
    public static func makeClient(in folder: String, name: String = "provision test client") throws(HarnessError) {
        try sign("client", name: name, in: folder, extensions: "extendedKeyUsage=clientAuth")
        chmod("\(folder)/client.key", 0o600)
    }

    /// `FILE.key` and `FILE.crt` for `name`, signed by the folder's `ca.crt` with `extensions`.
    private static func sign(_ file: String, name: String, in folder: String, extensions: String)
        throws(HarnessError)
    {
        let openssl = "/usr/bin/openssl"
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try PostgresTestServer.run(
            openssl,
            ["req"] + key + [
                "-keyout", "\(folder)/\(file).key", "-out", "\(folder)/\(file).csr", "-subj", "/CN=\(name)",
            ])
        let path = "\(folder)/\(file).ext"
        let text = "basicConstraints=CA:FALSE\n\(extensions)\n"
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw HarnessError("cannot write \(path)")
        }
        try PostgresTestServer.run(
            openssl,
            [
                "x509", "-req", "-in", "\(folder)/\(file).csr", "-CA", "\(folder)/ca.crt", "-CAkey",
                "\(folder)/ca.key", "-CAcreateserial", "-out", "\(folder)/\(file).crt", "-days", "2",
                "-extfile", path,
            ])
    }
}
