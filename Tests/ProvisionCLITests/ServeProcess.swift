import Foundation
import TestSupport
import Testing

/// A job folder `ServeProcess` serves: its `job.json` and the environment its keys come from.
protocol ServedJob {
    var folder: JobFolder { get }
    var env: [String: String] { get }
}

extension SUNTapJob: ServedJob {}
extension AuthTapJob: ServedJob {}

/// A real `provision serve` process on a job folder, listening on port 0 (or a Unix socket), driven with curl; every
/// answer it gives is kept so a test can check them all against the service's OpenAPI document.
final class ServeProcess: @unchecked Sendable {
    // @unchecked: `replies` is only touched under `lock`.
    let child: ChildProvision
    /// `tcp:127.0.0.1:PORT` or `unix:PATH`, as the service printed it.
    let listen: String
    private let lock = NSLock()
    private var replies: [(method: String, path: String, reply: CurlReply)] = []
    /// Where requests go instead of `listen` (`unix:PATH` of a proxy in front), when set; set it before any request.
    var via: String?

    /// Starts `provision serve --listen ADDRESS --manifest job.json --allow-root --json EXTRA…` in `job`'s folder
    /// and waits until it printed the address it listens on (its document checked against its schema).
    init(_ job: some ServedJob, listen: String = "tcp:127.0.0.1:0", _ extra: [String] = []) async throws {
        child = try ChildProvision(
            ["serve", "--listen", listen, "--manifest", "job.json", "--allow-root", "--json"] + extra,
            workingDirectory: job.folder.url, environment: job.env)
        var bound: String?
        for _ in 0..<3_000 where bound == nil && child.process.isRunning {
            try await Task.sleep(for: .milliseconds(10))
            bound = Self.listenAddress(child.stdout)
        }
        self.listen = try #require(bound, "serve did not start: \(child.stdout)\(child.stderr)")
        let document = try JSONContract.check(document: child.stdout, schema: "serve")
        #expect(document["jobs"] as? [String] == [job.folder.job])
    }

    /// The `listen` member of the document serve prints once listening.
    private static func listenAddress(_ stdout: String) -> String? {
        guard stdout.hasSuffix("\n"),
            let document = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        else { return nil }
        return document["listen"] as? String
    }

    /// curl's arguments reaching `path` on the service.
    private func target(_ path: String) -> [String] {
        let address = via ?? listen
        if address.hasPrefix("unix:") { return ["--unix-socket", String(address.dropFirst(5)), "http://serve" + path] }
        return ["http://" + address.dropFirst(4) + path]
    }

    /// `GET path` (a query already encoded), the answer kept.
    @discardableResult
    func get(_ path: String) async throws -> CurlReply {
        try await request("GET", path, [])
    }

    /// `GET /v1/verify?url=…` with `url` percent-encoded by curl.
    func verify(_ url: String) async throws -> CurlReply {
        try await request("GET", "/v1/verify", ["-G", "--data-urlencode", "url=\(url)"])
    }

    /// `POST path` with `body` as `application/json`.
    func post(_ path: String, body: String) async throws -> CurlReply {
        try await request("POST", path, ["-H", "Content-Type: application/json", "--data-binary", body])
    }

    private func request(_ method: String, _ path: String, _ extra: [String]) async throws -> CurlReply {
        let arguments = extra + target(path)
        let reply = try await onThread { try CurlReply.run(arguments) }
        lock.withLock { replies.append((method, path, reply)) }
        return reply
    }

    /// Validates the served OpenAPI document with openapi-spec-validator (the first `python3` on `PATH`, where
    /// `make test-deps` installs it) and checks every answer kept so far (JSON
    /// bodies against their response's schema, the media type and required headers) with jsonschema.
    func checkAnswersAgainstOpenAPI() async throws {
        let document = try await get("/v1/openapi.json")
        #expect(document.status == 200)
        let kept = lock.withLock { replies }
        let answers: [[String: Any]] = kept.map { item in
            [
                "method": item.method.lowercased(), "path": item.path, "status": item.reply.status,
                "type": item.reply.headers["content-type"] ?? "", "headers": item.reply.headers,
                "body": item.reply.body,
            ]
        }
        try await Self.check(answers, against: document.body)
    }

    /// Validates the OpenAPI `document` (openapi-spec-validator) and checks that every one of `answers` (`method`,
    /// `path`, `status`, `type`, `headers` by lowercase name, `body`) fits it: status, headers and body schema.
    static func check(_ answers: [[String: Any]], against document: String) async throws {
        let folder = try Fixtures.temporaryDirectory("openapi")
        try Data(document.utf8).write(to: folder.appendingPathComponent("openapi.json"))
        try JSONSerialization.data(withJSONObject: answers).write(to: folder.appendingPathComponent("answers.json"))
        let outcome = try await onThread {
            try ClientScript.run(
                "/usr/bin/env", ["python3", "-c", Self.openAPIScript, folder.path], timeoutSeconds: 120)
        }
        #expect(outcome.status == 0, "\(answers.count) answers: \(outcome.stdout)\(outcome.stderr)")
    }

    /// Reads openapi.json and answers.json from the folder in argv[1]; exits 1 naming each answer that does not fit.
    static let openAPIScript = #"""
        import json, sys, os
        from openapi_spec_validator import validate
        import jsonschema
        folder = sys.argv[1]
        doc = json.load(open(os.path.join(folder, "openapi.json")))
        validate(doc)
        def follow(node):
            while isinstance(node, dict) and "$ref" in node:
                target = doc
                for part in node["$ref"].lstrip("#/").split("/"):
                    target = target[part]
                node = target
            return node
        bad = []
        for answer in json.load(open(os.path.join(folder, "answers.json"))):
            where = "%s %s %s" % (answer["method"].upper(), answer["path"], answer["status"])
            operation = doc["paths"].get(answer["path"].split("?")[0], {}).get(answer["method"])
            if operation is None:
                bad.append(where + ": no such operation"); continue
            response = operation["responses"].get(str(answer["status"]))
            if response is None:
                bad.append(where + ": status not documented"); continue
            response = follow(response)
            for name in response.get("headers", {}):
                if name.lower() not in answer["headers"]:
                    bad.append(where + ": header " + name + " missing")
            content = response.get("content", {})
            media = content.get(answer["type"])
            if media is None:
                bad.append(where + ": media type " + answer["type"] + " not documented"); continue
            schema = dict(doc); schema.update(media.get("schema", {}))
            instance = answer["body"]
            if answer["type"] == "application/json":
                instance = json.loads(answer["body"])
            try:
                jsonschema.Draft202012Validator(schema).validate(instance)
            except jsonschema.ValidationError as error:
                bad.append(where + ": " + error.message)
        print("\n".join(bad))
        sys.exit(1 if bad else 0)
        """#
}
