import Foundation
import TestSupport
import Testing

/// The server's notices on a PostgreSQL ledger do not reach the operator raw (issue 40 item 10): libpq's default
/// notice processor printed `WARNING:  terminating connection …` to stderr, between the line's own messages.
@Suite struct PostgresNoticeTests {
    @Test func aWarningTheServerSendsDuringARunIsNotPrintedRaw() throws {
        let server = try PostgresTestServer.shared()
        let conninfo = try server.createDatabase()
        let folder = try JobFolder(rows: 2, lock: false)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let migrate = try ProvisionProcess.run(["ledger", "migrate", "--ledger", conninfo], directory: folder.url)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        // Every write to a row makes the server send the station a WARNING, as a crashing backend's neighbours get.
        let warning = "terminating connection because of crash of another server process"
        _ = try server.query(
            conninfo,
            "CREATE FUNCTION warn() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE WARNING '\(warning)'; "
                + "RETURN NEW; END $$; "
                + "CREATE TRIGGER warn BEFORE INSERT OR UPDATE ON records FOR EACH ROW EXECUTE FUNCTION warn()")
        let run = try ProvisionProcess.run(
            [
                "run", "job.json", "--ledger", conninfo, "--station", "s1",
                "--reader", folder.sim(uid: "04560000000001", options: "count=2"),
            ], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try server.query(conninfo, "SELECT count(*) FROM records WHERE state = 'done'") == [["2"]])
        #expect(!run.stderr.contains(warning) && !run.stderr.contains("WARNING"), "\(run.stderr)")
        #expect(!run.stdout.contains(warning), "\(run.stdout)")
    }
}
