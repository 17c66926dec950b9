import Foundation
import TestSupport
import Testing

/// The API through a real nginx (Debian's) in front of two `provision serve` processes on Unix sockets, as
/// docs/serve.md runs it: a throwaway nginx configuration in a temporary folder, nginx listening on a socket too.
@Suite struct ServeNginxTests {
    static let uid: [UInt8] = [0x04, 0x5C, 0x11, 0x00, 0x00, 0x00, 0x04]

    /// nginx (`daemon off`, every path inside `folder`) proxying `nginx.sock` to the `upstreams` sockets.
    final class Nginx: @unchecked Sendable {
        // @unchecked: `process` is started in init and only stopped by deinit.
        let process = Process()
        let socket: String

        convenience init(folder: URL, upstreams: [String]) throws {
            let socket = folder.appendingPathComponent("nginx.sock").path
            let servers = upstreams.map { "        server unix:\($0) max_fails=1 fail_timeout=5s;\n" }.joined()
            let site = """
                upstream provision_serve {
                \(servers)    keepalive 16;
                }
                server {
                    listen unix:\(socket);
                    location / {
                        proxy_pass http://provision_serve;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                        proxy_set_header X-Forwarded-For $remote_addr;
                        proxy_next_upstream error timeout;
                        proxy_connect_timeout 1s;
                    }
                }
                """
            let configuration = Self.configuration(folder: folder, connections: 64, http: site)
            try self.init(folder: folder, configuration: configuration, socket: socket)
        }

        /// A whole nginx configuration around `http` (the `http` block's own directives: upstreams, servers): in
        /// the foreground, logs, pid and temporary files inside `folder`, `connections` per worker.
        static func configuration(folder: URL, connections: Int, http: String) -> String {
            let temp = folder.path
            let indented = http.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
            return """
                daemon off;
                master_process on;
                worker_processes 1;
                user root;
                pid \(temp)/nginx.pid;
                error_log \(temp)/error.log;
                events { worker_connections \(connections); }
                http {
                    access_log off;
                    client_body_temp_path \(temp)/body;
                    proxy_temp_path \(temp)/proxy;
                    fastcgi_temp_path \(temp)/fastcgi;
                    uwsgi_temp_path \(temp)/uwsgi;
                    scgi_temp_path \(temp)/scgi;
                \(indented.joined(separator: "\n"))
                }

                """
        }

        /// nginx running `configuration` (every path inside `folder`); `socket`: where it listens, if on one.
        init(folder: URL, configuration: String, socket: String = "") throws {
            self.socket = socket
            let temp = folder.path
            let file = folder.appendingPathComponent("nginx.conf")
            try Data(configuration.utf8).write(to: file)
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
            process.arguments = ["-p", temp, "-c", file.path, "-e", "\(temp)/error.log"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Routes `client` through nginx and waits until `/healthz` answers 200 there (nginx binds its socket after
        /// it starts); the last answer, with nginx's error log when it is not 200.
        func front(_ client: ServeProcess, folder: URL) async throws -> (reply: CurlReply, log: String) {
            client.via = "unix:" + socket
            var health = try await client.get("/healthz")
            for _ in 0..<500 where health.status != 200 && process.isRunning {
                try await Task.sleep(for: .milliseconds(10))
                health = try await client.get("/healthz")
            }
            let log =
                health.status == 200 ? "" : (try? String(contentsOfFile: folder.path + "/error.log", encoding: .utf8))
            return (health, log ?? "")
        }

        deinit {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
    }

    @Test func theAPIAnswersThroughNginxAndAFreshTapIsValidOnceAcrossBothProcesses() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "make test-deps installs nginx")
        try #require(geteuid() == 0, "the throwaway nginx runs its worker as root (the sockets are 0660)")
        let job = try await SUNTapJob(extra: #", "public": ["sku"]"#)
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let folder = try Fixtures.temporaryDirectory("nginx")
        let servers = [
            try await ServeProcess(job, listen: "unix:" + folder.appendingPathComponent("s1.sock").path),
            try await ServeProcess(job, listen: "unix:" + folder.appendingPathComponent("s2.sock").path),
        ]
        let nginx = try Nginx(folder: folder, upstreams: servers.map { String($0.listen.dropFirst(5)) })
        let client = servers[0]
        let health = try await nginx.front(client, folder: folder)
        #expect(health.reply.status == 200, "\(health.reply) \(health.log)")
        for _ in 0..<2 {
            let url = try tag.tap()
            let verdicts = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await client.verify(url).headers["provision-verdict"] ?? "none" }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(verdicts == ["valid": 1, "replayed": 7], "\(verdicts)")
        }
        let answer = try await client.verify(try tag.tap())
        #expect(answer.body.contains(#""product":{"sku":"SKU-1"}"#), "\(answer)")
        #expect(try await client.get("/v1/verify").status == 400)
        #expect(
            try await client.post("/v1/verify", body: #"{"url": "https://e.io/t?p=00&m=00"}"#).headers[
                "provision-verdict"] == "invalid")
        try await client.checkAnswersAgainstOpenAPI()
        for server in servers { #expect(try await server.child.stop() == 0) }
    }

    /// docs/serve.md's site as written (TLS termination, `proxy_pass` to the Unix sockets of two `serve` processes),
    /// called through https by curl, which checks the certificate against the test CA only.
    @Test func theDocumentedTLSSiteServesTheAPIThroughHTTPS() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "make test-deps installs nginx")
        try #require(geteuid() == 0, "the throwaway nginx runs its worker as root (the sockets are 0660)")
        let job = try await SUNTapJob(extra: #", "public": ["sku"]"#)
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let folder = try Fixtures.temporaryDirectory("nginx-tls")
        let servers = [
            try await ServeProcess(job, listen: "unix:" + folder.appendingPathComponent("s1.sock").path),
            try await ServeProcess(job, listen: "unix:" + folder.appendingPathComponent("s2.sock").path),
        ]
        let site = try ServeDocSite(folder: folder, upstreams: servers.map { String($0.listen.dropFirst(5)) })
        let nginx = try Nginx(folder: folder, configuration: site.configuration)
        let openAPI = try await Self.https(site, "/v1/openapi.json", whileRunning: nginx)
        let log = (try? String(contentsOfFile: folder.path + "/error.log", encoding: .utf8)) ?? ""
        #expect(openAPI.status == 200, "\(openAPI) \(log)")
        for _ in 0..<2 {
            let url = try tag.tap()
            let verdicts = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await Self.https(site, "/v1/verify", ["-G", "--data-urlencode", "url=\(url)"])
                            .headers["provision-verdict"] ?? "none"
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(verdicts == ["valid": 1, "replayed": 7], "\(verdicts)")
        }
        let answer = try await Self.https(site, "/v1/verify", ["-G", "--data-urlencode", "url=\(try tag.tap())"])
        #expect(answer.headers["provision-verdict"] == "valid", "\(answer)")
        #expect(answer.body.contains(#""product":{"sku":"SKU-1"}"#), "\(answer)")
        let invalid = try await Self.https(
            site, "/v1/verify",
            ["-H", "Content-Type: application/json", "--data-binary", #"{"url": "https://e.io/t?p=00&m=00"}"#])
        #expect(invalid.status == 200 && invalid.headers["provision-verdict"] == "invalid", "\(invalid)")
        #expect(try await Self.https(site, "/v1/verify").status == 400)
        // As the site says: /healthz and /metrics stay inside (each process's socket).
        #expect(try await Self.https(site, "/healthz").status == 404)
        #expect(try await servers[1].get("/healthz").status == 200)
        // TLS is really checked: a CA that did not sign the site's certificate is refused (curl 60).
        let wrongCA = try await onThread {
            try CurlReply.run(
                site.target("/v1/openapi.json").map { $0 == site.caFile ? folder.path + "/tls/other-ca.crt" : $0 })
        }
        #expect(wrongCA.exitStatus == 60, "\(wrongCA)")
        for server in servers { #expect(try await server.child.stop() == 0) }
    }

    /// `path` on the site through https with curl's `extra` arguments; with `whileRunning`, tried until nginx has
    /// bound its port and answers (nginx binds after it starts), at most 5 s.
    static func https(_ site: ServeDocSite, _ path: String, _ extra: [String] = [], whileRunning nginx: Nginx? = nil)
        async throws -> CurlReply
    {
        var reply = try await onThread { try CurlReply.run(extra + site.target(path)) }
        for _ in 0..<500 where nginx?.process.isRunning == true && reply.exitStatus == 7 {
            try await Task.sleep(for: .milliseconds(10))
            reply = try await onThread { try CurlReply.run(extra + site.target(path)) }
        }
        return reply
    }
}
