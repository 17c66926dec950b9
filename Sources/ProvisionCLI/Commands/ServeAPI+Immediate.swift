import Foundation
import HTTPService
import Provisioning

/// `/v1/verify` on the HTTP worker thread that read the request, without a task (docs/reference/http.md §6).
extension ServeAPI {
    /// Answers a tap on its worker thread when every job served is keyed (`TapService.start`): the message is checked
    /// there, and a genuine one suspends its connection while the job's ledger reads, records and syncs it in one
    /// visit to its queue; the answer is made back on the worker thread. No task and no executor hand-off: two thread
    /// wake-ups a tap instead of four. The same checks, answer and log line as `handle`; `nil` hands the request to
    /// `handle` (another path, or an NTAG21x job).
    func immediate(_ request: HTTPRequest, _ deferral: HTTPDeferral) -> HTTPResponse? {
        guard request.path == "/v1/verify", Self.routes[request.path]?.contains(request.method) == true else {
            return nil
        }
        let start = ContinuousClock.now
        let url: String
        switch Self.tapURL(request) {
        case .refused(let refusal):
            record(request, Served(response: refusal), since: start)
            return refusal
        case .url(let text): url = text
        }
        switch service.start(url: url) {
        case nil: return nil
        case .answered(let answer):
            let served = answered(answer, since: start)
            record(request, served, since: start)
            return served.response
        case .ledger(let decide):
            guard let answer = deferral.suspend() else { return Self.stopping }
            decide { [self] outcome in
                // On the ledger's queue: the answer is made on the connection's worker thread.
                answer { [self] delivered in
                    let served: Served
                    switch outcome {
                    case .success(let tap): served = answered(tap, since: start)
                    case .failure(let error):
                        served = ledgerFailed()
                        Task { await reconnectIfDropped(error) }
                    }
                    record(request, served, since: start, late: !delivered)
                    return served.response
                }
            }
            return nil
        }
    }

    /// The answer to a tap that arrives while the server stops.
    static let stopping = error(503, "the server is stopping; try again", headers: [.init("Retry-After", "1")])
}
