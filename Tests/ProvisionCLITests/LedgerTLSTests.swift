import Foundation
import TestSupport
import Testing

/// A ledger server off the machine is reached only with a verified certificate, through the real binary against
/// a throwaway server with `ssl=on` whose certificate says `localhost` only (issue 43 item 2).
@Suite(.serialized) struct LedgerTLSTests {
    /// A job folder, the TLS server and a fresh database on it.
    private func line(rows: Int = 2) throws -> (JobFolder, PostgresTLSServer, (name: String, tcp: String)) {
        let server = try PostgresTLSServer.shared()
        return (try JobFolder(rows: rows, lock: false), server, try server.createDatabase())
    }

    /// The URI of `database` by the name the certificate carries, at 127.0.0.1, with `query` added.
    private func uri(_ server: PostgresTLSServer, _ database: String, host: String = "localhost", _ query: String)
        -> String
    {
        "postgresql://ledger@\(host):\(server.port)/\(database)?hostaddr=127.0.0.1&\(query)"
    }

    private func provision(_ arguments: [String], _ folder: JobFolder) throws -> ProvisionProcess.Outcome {
        try ProvisionProcess.run(arguments, directory: folder.url)
    }

    /// The ledger tables in `database` (over the socket): none when nothing was written.
    private func tables(_ server: PostgresTLSServer, _ database: String) throws -> [[String]] {
        try server.server.query(
            server.server.connInfo(database: database),
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")
    }

    @Test func verifyFullWithTheRightCAConnectsAndAJobRunsOverTLS() throws {
        let (folder, server, database) = try line()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let ledger = uri(server, database.name, "sslmode=verify-full&sslrootcert=\(server.caFile)")
        let migrate = try provision(["ledger", "migrate", "--ledger", ledger], folder)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(!migrate.stderr.contains("warning"), "\(migrate.stderr)")
        let run = try provision(
            [
                "run", "job.json", "--quiet", "--ledger", ledger, "--station", "s1", "--reader",
                folder.sim(uid: "04610000000001"),
            ],
            folder)
        #expect(run.status == 0, "\(run.stderr)")
        let status = try provision(["status", "--ledger", ledger, "--job", folder.job], folder)
        #expect(status.status == 0 && !status.stderr.contains("warning"), "\(status.stderr)")
        // verify-ca with the CA pinned is enough too; no insecure event was recorded.
        let pinned = uri(server, database.name, "sslmode=verify-ca&sslrootcert=\(server.caFile)")
        #expect(try provision(["status", "--ledger", pinned, "--job", folder.job], folder).status == 0)
        let local = server.server.connInfo(database: database.name)
        #expect(try server.server.query(local, "SELECT count(*) FROM records WHERE state = 'done'") == [["2"]])
        #expect(
            try server.server.query(local, "SELECT count(*) FROM events WHERE kind = 'insecure-connection'") == [["0"]])
    }

    @Test func aWrongCAOrAWrongHostNameIsUnavailableWithAClearErrorAndNothingWritten() throws {
        let (folder, server, database) = try line()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let wrongCA = uri(server, database.name, "sslmode=verify-full&sslrootcert=\(server.otherCAFile)")
        let refused = try provision(["ledger", "migrate", "--ledger", wrongCA], folder)
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(refused.stderr.contains("certificate verify failed"), "\(refused.stderr)")
        #expect(refused.stderr.contains("sslrootcert must be the CA"), "\(refused.stderr)")
        // The certificate says localhost; 127.0.0.1 is another name for the same server, not one it carries.
        let wrongHost = uri(
            server, database.name, host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(server.caFile)")
        let mismatch = try provision(["ledger", "migrate", "--ledger", wrongHost], folder)
        #expect(mismatch.status == 69, "\(mismatch.stderr)")
        #expect(mismatch.stderr.contains("does not match host name \"127.0.0.1\""), "\(mismatch.stderr)")
        #expect(try tables(server, database.name) == [["0"]])
    }

    @Test func plainTCPIsRefusedWithWhatToAddAndNothingWritten() throws {
        let (folder, server, database) = try line()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        for ledger in [
            uri(server, database.name, "sslmode=disable"), uri(server, database.name, "sslmode=require"),
            uri(server, database.name, "sslmode=verify-ca"), database.tcp,
        ] {
            let migrate = try provision(["ledger", "migrate", "--ledger", ledger], folder)
            #expect(migrate.status == 64, "\(ledger): \(migrate.stderr)")
            #expect(migrate.stderr.contains("sslmode=verify-full"), "\(migrate.stderr)")
            #expect(migrate.stderr.contains("sslrootcert=") && migrate.stderr.contains("--insecure-ledger"))
            let run = try provision(
                [
                    "run", "job.json", "--ledger", ledger, "--station", "s1", "--reader",
                    folder.sim(uid: "04620000000001"),
                ],
                folder)
            #expect(run.status == 64, "\(run.stderr)")
        }
        let json = try provision(["status", "--ledger", database.tcp, "--job", folder.job, "--json"], folder)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let error = document?["error"] as? [String: Any]
        #expect(json.status == 64 && error?["class"] as? String == "usage", "\(json.stdout)")
        #expect(error?["field"] as? String == "--ledger", "\(json.stdout)")
        #expect(try tables(server, database.name) == [["0"]])
    }

    @Test func insecureLedgerConnectsWithAWarningAndAnEventOnTheJob() throws {
        let (folder, server, database) = try line()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let ledger = uri(server, database.name, "sslmode=disable")
        let migrate = try provision(["ledger", "migrate", "--ledger", ledger, "--insecure-ledger"], folder)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stderr.contains("warning: ledger server") && migrate.stderr.contains("sslmode=disable"))
        let run = try provision(
            [
                "run", "job.json", "--quiet", "--ledger", ledger, "--station", "s1", "--insecure-ledger",
                "--reader", folder.sim(uid: "04630000000001"),
            ], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("warning: ledger server") && run.stderr.contains("recorded on job"), "\(run.stderr)")
        let status = try provision(["status", "--ledger", ledger, "--job", folder.job, "--insecure-ledger"], folder)
        #expect(status.status == 0 && status.stderr.contains("warning: ledger server"), "\(status.stderr)")
        let local = server.server.connInfo(database: database.name)
        #expect(try server.server.query(local, "SELECT count(*) FROM records WHERE state = 'done'") == [["2"]])
        let events = try server.server.query(
            local, "SELECT job, actor, detail FROM events WHERE kind = 'insecure-connection' ORDER BY id")
        #expect(events.count == 2, "\(events)")
        #expect(events.first.map { Array($0.prefix(2)) } == [folder.job, "s1"], "\(events)")
        #expect(events.allSatisfy { $0.last?.contains("--insecure-ledger: over TCP with sslmode=disable") == true })
    }

    @Test func aUnixSocketNeedsNoSSLModeAndNoFlag() throws {
        let (folder, server, database) = try line()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let folderInURI = server.server.directory.replacingOccurrences(of: "/", with: "%2F")
        let socket = "postgresql://ledger@\(folderInURI)/\(database.name)?port=\(server.port)"
        let migrate = try provision(
            ["ledger", "migrate", "--ledger", server.server.connInfo(database: database.name)], folder)
        #expect(migrate.status == 0 && !migrate.stderr.contains("warning"), "\(migrate.stderr)")
        let run = try provision(
            [
                "run", "job.json", "--quiet", "--ledger", socket, "--station", "s1", "--reader",
                folder.sim(uid: "04640000000001"),
            ],
            folder)
        #expect(run.status == 0 && !run.stderr.contains("warning"), "\(run.stderr)")
    }

    @Test func secretsInTheConnectionStringNeverReachTheOutput() throws {
        let (folder, server, database) = try line()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let secrets = [
            (
                uri(server, database.name, "sslmode=verify-full&sslrootcert=\(server.caFile)&sslpassword=hun7er2"),
                "hun7er2"
            ),
            ("postgresql://ledger:hun%ZZter2@localhost:\(server.port)/\(database.name)?sslmode=verify-full", "ZZter2"),
            (uri(server, database.name, "sslmode=verify-full&sslrootcert=%ZZs3cret"), "s3cret"),
        ]
        for (ledger, secret) in secrets {
            for arguments in [
                ["ledger", "migrate", "--ledger", ledger], ["status", "--ledger", ledger, "--job", folder.job],
                ["status", "--ledger", ledger, "--job", folder.job, "--json"],
            ] {
                let outcome = try provision(arguments, folder)
                #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
                #expect(!outcome.stderr.contains(secret) && !outcome.stdout.contains(secret), "\(outcome.stderr)")
            }
        }
        #expect(try tables(server, database.name) == [["0"]])
    }

    /// verify-url is checked on its own below: it opens the ledger only for a URL of the job's shape.
    @Test func everyCommandRefusesAManifestLedgerOverPlainTCPAndTakesTheFlag() throws {
        let server = try PostgresTLSServer.shared()
        let database = try server.createDatabase()
        let ledger = uri(server, database.name, "sslmode=require")
        let folder = try JobFolder(rows: 1, lock: false, extra: ", \"ledger\": \"\(ledger)\"")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let commands = [
            ["ledger", "migrate", "job.json"], ["run", "job.json", "--reader", folder.sim(uid: "04650000000001")],
            ["status", "job.json"], ["report", "job.json"], ["release", "job.json", "--row", "1"],
            ["reissue", "job.json", "--row", "1", "--reason", "crushed"],
            ["audit", "job.json", "--reader", folder.sim(uid: "04650000000001"), "--count", "1"],
        ]
        for arguments in commands {
            let outcome = try provision(arguments, folder)
            #expect(
                outcome.status == 64 && outcome.stderr.contains("--insecure-ledger"), "\(arguments): \(outcome.stderr)")
        }
        #expect(try tables(server, database.name) == [["0"]])
        // With the flag each gets past the check (its own answer follows), warned on stderr.
        for arguments in commands {
            let outcome = try provision(arguments + ["--insecure-ledger"], folder)
            #expect(outcome.status != 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("warning: ledger server"), "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func verifyURLRefusesAPlainTCPLedgerAndTakesTheFlag() async throws {
        let job = try AuthTapJob()
        defer { try? FileManager.default.removeItem(at: job.folder.url) }
        let reader = job.folder.sim(uid: "04660000000001")
        #expect(try await job.run(reader: reader).status == 0)
        let url = try await job.tap(reader: reader).url
        let server = try PostgresTLSServer.shared()
        let ledger = uri(server, try server.createDatabase().name, "sslmode=disable")
        let arguments = ["verify-url", url, "--manifest", "job.json", "--ledger", ledger]
        let refused = try ProvisionProcess.run(arguments, directory: job.folder.url, environment: job.env)
        #expect(refused.status == 64 && refused.stderr.contains("sslmode=verify-full"), "\(refused.stderr)")
        // With the flag it connects (and finds the database not migrated: 73), warned on stderr.
        let allowed = try ProvisionProcess.run(
            arguments + ["--insecure-ledger"], directory: job.folder.url, environment: job.env)
        #expect(allowed.status == 73 && allowed.stderr.contains("warning: ledger server"), "\(allowed.stderr)")
    }

    @Test func everyCommandThatOpensALedgerDocumentsTheFlag() throws {
        for command in ["run", "status", "report", "audit", "release", "reissue", "verify-url", "serve", "ledger"] {
            let help = try ProvisionProcess.run([command, "--help"])
            #expect(help.status == 0 && help.stdout.contains("--insecure-ledger  allow a ledger server"), "\(command)")
        }
    }
}
