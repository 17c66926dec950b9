import Crypto
import Foundation
import HTTPService
import Ledger
import NDEF
import Provisioning
import Support
import Synchronization

/// API v1 of `provision serve` (docs/api.md): routes each request to its answer. Runs in the HTTP server's handler
/// tasks, awaiting the ledger there (no thread waits); never shows key material, decrypted data or ledger paths.
final class ServeAPI: Sendable {
    /// The jobs served and their ledger files, replaced whole by a reload (SIGHUP); a request uses the ones it began
    /// with.
    private let loaded: Mutex<Loaded>
    private struct Loaded {
        var service: TapService
        var ledgerFiles: [String: String]
    }
    /// The jobs served.
    var service: TapService { loaded.withLock { $0.service } }
    /// Job → its ledger file, for the file ledgers (`/healthz` checks the file is still there).
    var ledgerFiles: [String: String] { loaded.withLock { $0.ledgerFiles } }
    let metrics: ServeMetrics
    /// A token bucket per genuine UID (`--uid-burst`, `--uid-per-minute`); `nil`: no limit.
    let uidLimiter: RateLimiter?
    /// Where the one line per request goes (stderr); `nil`: nowhere.
    let log: (@Sendable (String) -> Void)?
    /// The per-process random key of the UID hash in log lines: lines of one process can be matched, never reversed
    /// to a UID, and not across restarts.
    private let uidHashKey = SecureRandom.bytes(32)

    init(
        service: TapService, ledgerFiles: [String: String], uidLimiter: RateLimiter? = nil,
        log: (@Sendable (String) -> Void)? = nil
    ) {
        loaded = Mutex(Loaded(service: service, ledgerFiles: ledgerFiles))
        self.uidLimiter = uidLimiter
        self.log = log
        metrics = ServeMetrics(jobs: service.jobs)
    }

    /// Serves `service` from the next request on (a reload: SIGHUP); requests under way finish with the old one.
    func replace(_ service: TapService, ledgerFiles: [String: String]) {
        loaded.withLock { $0 = Loaded(service: service, ledgerFiles: ledgerFiles) }
        metrics.replaceJobs(service.jobs)
    }

    /// What the log line of one request says besides method, path and status.
    struct Served {
        var response: HTTPResponse
        var verdict: String?
        var job: String?
        var uid: [UInt8]?
    }

    /// The public answer to a tap: the verdict, and for a genuine message (`valid`, `replayed`, `suspicious`) its
    /// counter, job and public fields.
    struct Answer {
        var verdict: String
        var counter: UInt32?
        var job: String?
        var product: [String: String]

        /// Compact JSON with sorted keys (`counter`, `job`, `product`, `verdict`; absent values `null`), written by
        /// hand: JSONEncoder cost about as much as the rest of a tap's answer.
        var json: [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(128)
            out.append(contentsOf: Array("{\"counter\":".utf8))
            out.append(contentsOf: Array((counter.map { String($0) } ?? "null").utf8))
            out.append(contentsOf: Array(",\"job\":".utf8))
            if let job { JSONString.append(job, to: &out) } else { out.append(contentsOf: Array("null".utf8)) }
            out.append(contentsOf: Array(",\"product\":{".utf8))
            for (index, field) in product.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.append(field.key, to: &out)
                out.append(UInt8(ascii: ":"))
                JSONString.append(field.value, to: &out)
            }
            out.append(contentsOf: Array("},\"verdict\":".utf8))
            JSONString.append(verdict, to: &out)
            out.append(UInt8(ascii: "}"))
            return out
        }
    }

    /// The answer's header carrying the verdict, for proxies and logs.
    static let verdictHeader = "Provision-Verdict"

    /// Answers one request and logs it: method, path (a known one, else `-`), status, verdict, job, the UID's keyed
    /// hash and the latency; never the query, the URL, PICC data or keys.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let start = ContinuousClock.now
        let served = await route(request)
        record(request, served, since: start)
        return served.response
    }

    /// Logs one request's line: method, path (a known one, else `-`), status, verdict, job, the UID's keyed hash and
    /// the latency; never the query, the URL, PICC data or keys. `late`: the server answered the client 503 before
    /// this answer was made (its deadline), so the line gives that status, the answer's verdict and `late`.
    func record(_ request: HTTPRequest, _ served: Served, since start: ContinuousClock.Instant, late: Bool = false) {
        guard let log else { return }
        let status = late ? 503 : served.response.status
        let path = Self.routes[request.path] == nil ? "-" : request.path
        let uid = served.uid.map { Hex.compact(Array(Digest.hmacSHA256(key: uidHashKey, message: $0).prefix(8))) }
        let millis = Self.milliseconds(ContinuousClock.now - start)
        log(
            "serve: \(request.method) \(path) \(status) verdict=\(served.verdict ?? "-") "
                + "job=\(served.job ?? "-") uid=\(uid ?? "-") ms=\(millis)" + (late ? " late" : ""))
    }

    /// `duration` in milliseconds with three decimals (`12.345`), without `String(format:)`'s cost on every line.
    static func milliseconds(_ duration: Duration) -> String {
        let micros = max(0, Int((duration.seconds * 1_000_000).rounded()))
        let fraction = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    static let routes: [String: Set<String>] = [
        "/v1/verify": ["GET", "POST"], "/healthz": ["GET", "HEAD"], "/metrics": ["GET", "HEAD"],
        "/v1/openapi.json": ["GET", "HEAD"],
    ]

    private func route(_ request: HTTPRequest) async -> Served {
        if request.path == "/v1/verify" && Self.routes[request.path]?.contains(request.method) == true {
            return await verify(request)
        }
        return Served(response: await answer(request))
    }

    private func answer(_ request: HTTPRequest) async -> HTTPResponse {
        guard let methods = Self.routes[request.path] else { return Self.error(404, "no such endpoint") }
        guard methods.contains(request.method) else {
            return Self.error(
                405, "method \(request.method) not allowed",
                headers: [.init("Allow", methods.sorted().joined(separator: ", "))])
        }
        switch request.path {
        case "/healthz": return await health()
        case "/metrics":
            return HTTPResponse(
                status: 200, headers: [.init("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                body: Array(metrics.text().utf8))
        default:
            return .json(200, Array(ServeOpenAPI.document.utf8))
        }
    }

    /// `/v1/verify`: the URL from the query (`GET`) or the JSON body (`POST`), then the verdict (`answered`).
    private func verify(_ request: HTTPRequest) async -> Served {
        let url: String
        switch Self.tapURL(request) {
        case .refused(let refusal): return Served(response: refusal)
        case .url(let text): url = text
        }
        let start = ContinuousClock.now
        do {
            return answered(try await service.verify(url: url), since: start)
        } catch {
            await reconnectIfDropped(error)
            return ledgerFailed()
        }
    }

    /// A tap's answer from its verdict: a genuine UID takes a token from its bucket, and a `replayed` or `suspicious`
    /// answer for a UID whose bucket is empty is 429 instead (a `valid` one is stored already, so it is always
    /// answered).
    func answered(_ answer: TapAnswer, since start: ContinuousClock.Instant) -> Served {
        let verdict = answer.verdict.kind
        // `unknown` (a genuine message of a UID outside the job) is `invalid` over HTTP, naming nothing.
        let genuine = verdict == .valid || verdict == .replayed || verdict == .suspicious
        let word = genuine ? verdict.rawValue : "invalid"
        let uid = genuine ? answer.verdict.uid : nil
        if let uid, let uidLimiter, let wait = uidLimiter.take(Hex.compact(uid)), verdict != .valid {
            let retry = String(min(wait, 86_400))
            return Served(
                response: .text(429, "too many requests", headers: [.init("Retry-After", retry)]),
                verdict: word, job: answer.job, uid: uid)
        }
        metrics.verdict(job: genuine ? answer.job : nil, verdict: word, seconds: (ContinuousClock.now - start).seconds)
        let body = Answer(
            verdict: word, counter: genuine ? answer.verdict.counter : nil, job: genuine ? answer.job : nil,
            product: genuine ? answer.product : [:])
        let response = HTTPResponse.json(
            200, body.json,
            headers: [.init(Self.verdictHeader, word), .init("Cache-Control", "no-store")])
        return Served(response: response, verdict: word, job: genuine ? answer.job : nil, uid: uid)
    }

    /// The answer when a ledger failed a tap: 503, counted in the metrics.
    func ledgerFailed() -> Served {
        metrics.ledgerError()
        return Served(
            response: Self.error(503, "the ledger is unavailable; try again", headers: [.init("Retry-After", "1")]))
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
    private func health() async -> HTTPResponse {
        let (service, ledgerFiles) = loaded.withLock { ($0.service, $0.ledgerFiles) }
        for job in service.jobs {
            let name = job.verifier.job
            if let path = ledgerFiles[name], !FileManager.default.fileExists(atPath: path) {
                return .text(503, "unhealthy: the ledger of job \(name) is gone")
            }
            let ledger = job.ledger
            let probe = { @Sendable () async throws in _ = try await ledger.job(named: name) }
            do {
                try await probe()
            } catch {
                // A probe repeats safely: after a dropped connection, connect again and ask once more.
                await reconnectIfDropped(error)
                do {
                    try await probe()
                } catch {
                    metrics.ledgerError()
                    return .text(503, "unhealthy: the ledger of job \(name) does not answer")
                }
            }
        }
        return .text(200, "ok: \(service.jobs.count) job\(service.jobs.count == 1 ? "" : "s"), keys loaded, ledger up")
    }

    /// After a dropped ledger connection, connects the service's ledgers again for the next request.
    func reconnectIfDropped(_ error: any Error) async {
        guard (error as? LedgerError)?.code == .disconnected else { return }
        await service.reconnect()
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
