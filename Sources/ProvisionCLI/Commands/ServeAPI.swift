import Foundation
import HTTPService
import Ledger
import Provisioning
import Support

/// API v1 of `provision serve` (docs/api.md): routes each request to its answer. Runs on the HTTP server's worker
/// threads, waiting for the ledger there (`waitBlocking`); never shows key material, decrypted data or ledger paths.
final class ServeAPI: Sendable {
    let service: TapService
    /// Job → its ledger file, for the file ledgers (`/healthz` checks the file is still there).
    let ledgerFiles: [String: String]
    let metrics: ServeMetrics

    init(service: TapService, ledgerFiles: [String: String]) {
        self.service = service
        self.ledgerFiles = ledgerFiles
        metrics = ServeMetrics(jobs: service.jobs)
    }

    /// The public answer to a tap: the verdict, and for a genuine message its counter, job and public fields.
    struct Answer: Encodable {
        var verdict: String
        var counter: UInt32?
        var job: String?
        var product: [String: String]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(verdict, forKey: .verdict)
            try container.encode(counter, forKey: .counter)
            try container.encode(job, forKey: .job)
            try container.encode(product, forKey: .product)
        }

        enum CodingKeys: String, CodingKey { case verdict, counter, job, product }
    }

    /// The answer's header carrying the verdict, for proxies and logs.
    static let verdictHeader = "Provision-Verdict"

    /// Answers one request.
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let routes: [String: Set<String>] = [
            "/v1/verify": ["GET", "POST"], "/healthz": ["GET", "HEAD"], "/metrics": ["GET", "HEAD"],
            "/v1/openapi.json": ["GET", "HEAD"],
        ]
        guard let methods = routes[request.path] else { return Self.error(404, "no such endpoint") }
        guard methods.contains(request.method) else {
            return Self.error(
                405, "method \(request.method) not allowed",
                headers: [.init("Allow", methods.sorted().joined(separator: ", "))])
        }
        switch request.path {
        case "/v1/verify": return verify(request)
        case "/healthz": return health()
        case "/metrics":
            return HTTPResponse(
                status: 200, headers: [.init("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                body: Array(metrics.text().utf8))
        default:
            return .json(200, Array(ServeOpenAPI.document.utf8))
        }
    }

    /// `/v1/verify`: the URL from the query (`GET`) or the JSON body (`POST`), then the verdict.
    private func verify(_ request: HTTPRequest) -> HTTPResponse {
        let url: String
        switch Self.tapURL(request) {
        case .refused(let refusal): return refusal
        case .url(let text): url = text
        }
        let clock = ContinuousClock()
        let start = clock.now
        let service = self.service
        let answer: TapAnswer
        do {
            answer = try waitBlocking { try await service.verify(url: url) }
        } catch {
            metrics.ledgerError()
            return Self.error(503, "the ledger is unavailable; try again", headers: [.init("Retry-After", "1")])
        }
        let verdict = answer.verdict.kind
        let genuine = verdict == .valid || verdict == .replayed
        let word = genuine ? verdict.rawValue : "invalid"
        metrics.verdict(job: genuine ? answer.job : nil, verdict: word, seconds: (clock.now - start).seconds)
        let body = Answer(
            verdict: word, counter: genuine ? answer.verdict.counter : nil, job: genuine ? answer.job : nil,
            product: genuine ? answer.product : [:])
        return .json(
            200, Self.encode(body),
            headers: [.init(Self.verdictHeader, word), .init("Cache-Control", "no-store")])
    }

    /// The one tap URL of a request: `GET` with exactly one `url` parameter and no other, or `POST` with a JSON
    /// object holding only `"url"` (a string); else 400, and 414 for a URL over `TapURL.maximumLength` bytes.
    static func tapURL(_ request: HTTPRequest) -> TapURLRequest {
        let url: String
        if request.method == "GET" {
            guard request.query.count == 1, let item = request.query.first, item.name == "url", let value = item.value
            else { return .refused(error(400, "GET /v1/verify takes exactly one parameter, url")) }
            url = value
        } else {
            guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                object.count == 1, let value = object["url"] as? String
            else { return .refused(error(400, "POST /v1/verify takes a JSON object {\"url\": \"…\"}")) }
            url = value
        }
        guard url.utf8.count <= TapURL.maximumLength else {
            return .refused(error(414, "the URL is longer than \(TapURL.maximumLength) bytes"))
        }
        guard !url.isEmpty else { return .refused(error(400, "the URL is empty")) }
        return .url(url)
    }

    /// The tap URL a request carries, or the answer refusing it.
    enum TapURLRequest {
        case url(String)
        case refused(HTTPResponse)
    }

    /// `/healthz`: 200 when every job's ledger answers (a file ledger must still be at its path), else 503 naming
    /// the first job whose ledger does not; keys are loaded before the service listens.
    private func health() -> HTTPResponse {
        for job in service.jobs {
            let name = job.verifier.job
            if let path = ledgerFiles[name], !FileManager.default.fileExists(atPath: path) {
                return .text(503, "unhealthy: the ledger of job \(name) is gone")
            }
            let ledger = job.ledger
            do {
                _ = try waitBlocking { try await ledger.job(named: name) }
            } catch {
                metrics.ledgerError()
                return .text(503, "unhealthy: the ledger of job \(name) does not answer")
            }
        }
        return .text(200, "ok: \(service.jobs.count) job\(service.jobs.count == 1 ? "" : "s"), keys loaded, ledger up")
    }

    /// A JSON error answer `{"error": message}`.
    static func error(_ status: Int, _ message: String, headers: [HTTPResponse.Header] = []) -> HTTPResponse {
        .json(status, encode(["error": message]), headers: headers)
    }

    /// Compact JSON with sorted keys and slashes unescaped.
    static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}
