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
        try PostgresTestServer.run(
            openssl,
            ["req"] + key + [
                "-keyout", "\(folder)/server.key", "-out", "\(folder)/server.csr", "-subj", "/CN=\(name)",
            ])
        let extensions = folder + "/server.ext"
        let text = "subjectAltName=DNS:\(name)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
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
}
