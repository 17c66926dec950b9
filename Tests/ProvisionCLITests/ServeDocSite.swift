import Foundation
import TestSupport
import Testing

/// The nginx site docs/serve.md gives ("Behind nginx"), read from the document itself so the tests run the text a
/// reader copies: TLS on a free port of 127.0.0.1 with a throwaway test CA's certificate (`TestCertificates`) for
/// its `server_name`, and its upstream pointed at the test's `serve` sockets. Everything else is as written.
struct ServeDocSite {
    /// The site's `server_name`, which its certificate names.
    let name: String
    /// The port nginx listens on with TLS, at 127.0.0.1.
    let port: Int
    /// The test CA that signed the site's certificate (`curl --cacert`).
    let caFile: String
    /// The whole nginx configuration: the test's `events` and temporary paths around the site.
    let configuration: String

    /// The ```nginx block of docs/serve.md.
    static func documented() throws -> String {
        let text = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/serve.md"), encoding: .utf8)
        let start = try #require(text.range(of: "```nginx\n"), "docs/serve.md has no nginx block")
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// The documented site in `folder` (certificates made there), in front of the `upstreams` sockets; nginx may hold
    /// `connections` connections at once (clients and upstreams together).
    init(folder: URL, upstreams: [String], connections: Int = 256) throws {
        var site = try Self.documented()
        name = try #require(Self.value(of: "server_name", in: site), "the site has no server_name")
        let certificates = folder.appendingPathComponent("tls").path
        try FileManager.default.createDirectory(atPath: certificates, withIntermediateDirectories: true)
        try TestCertificates.make(in: certificates, name: name)
        caFile = certificates + "/ca.crt"
        port = try TCPPort.free()
        // The upstream's socket lines: the first one's options, once for each of the test's sockets.
        let servers = site.split(separator: "\n", omittingEmptySubsequences: false).filter {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("server unix:")
        }
        let first = try #require(servers.first, "the site's upstream has no Unix socket")
        let path = try #require(first.split(separator: " ").first { $0.hasPrefix("unix:") })
        let lines = upstreams.map { first.replacingOccurrences(of: path, with: "unix:" + $0) }
        site = try Self.replace(servers.map(String.init).joined(separator: "\n"), lines.joined(separator: "\n"), site)
        site = try Self.replace("listen 443 ssl;", "listen 127.0.0.1:\(port) ssl;", site)
        for (directive, file) in [("ssl_certificate", "server.crt"), ("ssl_certificate_key", "server.key")] {
            let value = try #require(Self.value(of: directive, in: site), "the site has no \(directive)")
            site = try Self.replace(value + ";", certificates + "/" + file + ";", site)
        }
        configuration = ServeNginxTests.Nginx.configuration(folder: folder, connections: connections, http: site)
    }

    /// curl's arguments reaching `path` on the site by its name, through TLS checked against the test CA only.
    func target(_ path: String) -> [String] {
        ["--cacert", caFile, "--resolve", "\(name):\(port):127.0.0.1", "https://\(name):\(port)\(path)"]
    }

    /// The first value of `directive` in `text` (`ssl_certificate /etc/….pem;` → `/etc/….pem`).
    private static func value(of directive: String, in text: String) -> String? {
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.first == Substring(directive), words.count >= 2 { return String(words[1].dropLast()) }
        }
        return nil
    }

    /// `text` with `old`, which must be in it, replaced by `new`: a site that no longer reads so fails the test.
    private static func replace(_ old: String, _ new: String, _ text: String) throws -> String {
        try #require(text.contains(old), "docs/serve.md's nginx site no longer has \(old)")
        return text.replacingOccurrences(of: old, with: new)
    }
}
