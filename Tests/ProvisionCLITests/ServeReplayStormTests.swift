import Foundation
import TestSupport
import Testing

/// The replay storm of issue 44 at this machine's scale: four `provision serve` processes on one PostgreSQL ledger
/// behind nginx, copies of fresh tap URLs of three tags fired at once; each URL is `valid` exactly once, every
/// other answer `replayed`, and nothing is a 5xx.
@Suite struct ServeReplayStormTests {
    static let uids: [[UInt8]] = (0..<3).map { [0x04, 0x5C, 0x12, 0x00, 0x00, 0x00, UInt8($0 + 1)] }
    /// Rounds, and copies of each round's URLs (one fresh URL per tag a round).
    static let rounds = 3
    static let copies = 8

    @Test(.timeLimit(.minutes(5))) func fourProcessesOnOnePostgreSQLLedgerBehindNginxAcceptEachTapOnce() async throws {
        try #require(geteuid() == 0, "the throwaway nginx runs its worker as root (the sockets are 0660)")
        let job = try await SUNTapJob()
        for uid in Self.uids { try await job.markDone(uid: uid) }
        let tags = try Self.uids.enumerated().map { try job.tag(uid: $0.element, row: $0.offset + 1) }
        let extra = try VerifyURLRaceTests.ledgerArguments(.postgresql, folder: job.folder)
        let folder = try Fixtures.temporaryDirectory("storm")
        var servers: [ServeProcess] = []
        for index in 1...4 {
            let socket = "unix:" + folder.appendingPathComponent("s\(index).sock").path
            servers.append(try await ServeProcess(job, listen: socket, extra))
        }
        let nginx = try ServeNginxTests.Nginx(folder: folder, upstreams: servers.map { String($0.listen.dropFirst(5)) })
        let client = servers[0]
        let health = try await nginx.front(client, folder: folder)
        #expect(health.reply.status == 200, "\(health.reply) \(health.log)")
        for round in 1...Self.rounds {
            let urls = try tags.map { try $0.tap() }
            let answers = try await withThrowingTaskGroup(of: (String, Int, String).self) { group in
                for url in urls {
                    for _ in 0..<Self.copies {
                        group.addTask {
                            let reply = try await client.verify(url)
                            return (url, reply.status, reply.headers["provision-verdict"] ?? "none")
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.1 == 200 }, "round \(round): \(answers.filter { $0.1 != 200 })")
            for url in urls {
                let verdicts = answers.filter { $0.0 == url }.reduce(into: [String: Int]()) {
                    $0[$1.2, default: 0] += 1
                }
                #expect(verdicts == ["valid": 1, "replayed": Self.copies - 1], "round \(round): \(verdicts)")
            }
        }
        try await client.checkAnswersAgainstOpenAPI()
        for server in servers { #expect(try await server.child.stop() == 0) }
    }
}
