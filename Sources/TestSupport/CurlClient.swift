import Foundation

/// Drives the real `curl` binary (a client nobody here wrote) and splits what it printed into status, headers, body.
public struct CurlReply: Sendable {
    /// curl's exit status (7: could not connect).
    public var exitStatus: Int32
    public var status: Int
    public var headers: [String: String]
    public var body: String

    /// Runs `curl -s -i` with `arguments`; `Expect:` is sent empty, so no interim 100 block precedes the answer.
    public static func run(_ arguments: [String]) throws -> CurlReply {
        let outcome = try ClientScript.run(
            "/usr/bin/curl", ["-s", "-i", "--max-time", "20", "-H", "Expect:"] + arguments, timeoutSeconds: 30)
        let text = outcome.stdout
        guard let split = text.range(of: "\r\n\r\n") else {
            return CurlReply(exitStatus: outcome.status, status: 0, headers: [:], body: text)
        }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return CurlReply(
            exitStatus: outcome.status, status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}
