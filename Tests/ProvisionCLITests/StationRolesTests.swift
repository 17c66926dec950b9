import Foundation
import TestSupport
import Testing

/// The roles `provision ledger migrate` makes, on a real server (docs/stations.md, "Roles"): a database owned by
/// a migration role, login roles bound with `ledger grant`, and `provision` run as each login as a line engineer
/// would.
@Suite(.serialized) struct StationRolesTests {
    @Test func aStationRunsTheJobButOnlyTheSupervisorReleasesAndReissues() async throws {
        let rows = 12
        let folder = try JobFolder(rows: rows, lock: false)
        let line = try StationLine.migrated(folder: folder)
        let server = line.server

        // The station's login registers the job, claims and records every row.
        let run = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--quiet", "--ledger", line.conninfo(line.bench), "--station", "s1",
                    "--reader", folder.sim(uid: "04510000000001", options: "timing=datasheet"),
                ], directory: folder.url)
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try server.query(line.admin, "SELECT state, count(*) FROM records GROUP BY state") == [["done", "\(rows)"]])

        // The station may not reissue a done row (the new row's reissue_of column is not granted)…
        let stationReissue = try ProvisionProcess.run(
            ["reissue", "job.json", "--row", "1", "--reason", "test", "--ledger", line.conninfo(line.bench)],
            directory: folder.url)
        #expect(
            stationReissue.status != 0 && stationReissue.stderr.contains("permission denied"),
            "\(stationReissue.stderr)")
        // …the supervisor may: row 1's tag was destroyed, so its data goes out again as a new row.
        let reissue = try ProvisionProcess.run(
            [
                "reissue", "job.json", "--row", "1", "--reason", "crushed", "--by", "lead", "--ledger",
                line.conninfo(line.lead),
            ],
            directory: folder.url)
        #expect(reissue.status == 0, "\(reissue.stderr)")
        let new = rows + 1
        #expect(
            try server.query(line.admin, "SELECT state, reissue_of FROM records WHERE row = \(new)") == [
                ["pending", "1"]
            ])

        // A station claims the new row and dies before its tag is written: the claim stays with the tag's UID.
        _ = try server.query(
            line.admin,
            "UPDATE records SET state = 'claimed', uid = '04DEAD00000001', claimed_by = 's1/sim:ntag215', "
                + "claimed_at = (SELECT claimed_at FROM records WHERE row = 2) WHERE row = \(new)")

        // The station's login can neither release that row through provision nor delete rows directly.
        let stationRelease = try ProvisionProcess.run(
            ["release", "--ledger", line.conninfo(line.bench), "--job", folder.job, "--row", "\(new)"],
            directory: folder.url)
        #expect(stationRelease.status == 73, "\(stationRelease.stderr)")
        // (A station login has no UPDATE on records at all: it claims and commits through the station functions.)
        #expect(stationRelease.stderr.contains("permission denied for table records"), "\(stationRelease.stderr)")
        #expect(try server.query(line.admin, "SELECT state FROM records WHERE row = \(new)") == [["claimed"]])
        let delete = try line.psql(line.conninfo(line.bench), ["-c", "DELETE FROM records WHERE row = \(new)"])
        #expect(delete.status != 0 && delete.output.contains("permission denied for table records"), "\(delete.output)")
        let update = try line.psql(line.conninfo(line.bench), ["-c", "UPDATE records SET reissue_of = NULL"])
        #expect(update.status != 0 && update.output.contains("permission denied for table records"), "\(update.output)")

        // The supervisor sees the stranded claim and the station's ended lease…
        let status = try ProvisionProcess.run(
            ["status", "--ledger", line.conninfo(line.lead), "--job", folder.job, "--json"], directory: folder.url)
        #expect(status.status == 0, "\(status.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let claims = try #require(document["claims"] as? [[String: Any]])
        #expect(claims.compactMap { $0["row"] as? Int } == [new], "\(claims)")
        let leases = try #require(document["leases"] as? [[String: Any]])
        #expect(leases.compactMap { $0["station"] as? String } == ["s1"], "\(leases)")
        // …and releases it, recorded as its event.
        let release = try ProvisionProcess.run(
            ["release", "--ledger", line.conninfo(line.lead), "--job", folder.job, "--row", "\(new)", "--by", "lead"],
            directory: folder.url)
        #expect(release.status == 0, "\(release.stderr)")
        #expect(
            try server.query(line.admin, "SELECT state, uid IS NULL FROM records WHERE row = \(new)") == [
                ["pending", "t"]
            ])
        #expect(try server.query(line.admin, "SELECT actor FROM events WHERE kind = 'release'") == [["lead"]])
        // The supervisor's login cannot run a station: it may not claim.
        let supervisorRun = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--quiet", "--ledger", line.conninfo(line.lead), "--station", "s2",
                    "--reader", folder.sim(uid: "04520000000001", options: "timing=datasheet"),
                ], directory: folder.url)
        }
        #expect(
            supervisorRun.status != 0 && supervisorRun.stderr.contains("permission denied"), "\(supervisorRun.stderr)")
        #expect(try server.query(line.admin, "SELECT state FROM records WHERE row = \(new)") == [["pending"]])
    }

    @Test func aVerifierRecordsTapCountersButChangesNoRow() async throws {
        let job = try AuthTapJob()
        let line = try StationLine.migrated(folder: job.folder)
        let reader = job.folder.sim(uid: "04000000000001", options: "count=2")
        let run = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--reader", reader, "--quiet", "--idle", "20", "--ledger",
                    line.conninfo(line.bench), "--station", "s1",
                ], directory: job.folder.url, environment: job.env)
        }
        #expect(run.status == 0, "\(run.stderr)")
        let url = try await job.tap(reader: reader).url
        let verify = { (login: String) throws -> ProvisionProcess.Outcome in
            try ProvisionProcess.run(
                ["verify-url", url, "--manifest", "job.json", "--ledger", line.conninfo(login)],
                directory: job.folder.url, environment: job.env)
        }
        let first = try verify(line.gate)
        #expect(first.status == 0 && first.stdout.hasPrefix("valid"), "\(first.stdout)\(first.stderr)")
        let again = try verify(line.gate)
        #expect(again.status == 1 && again.stdout.hasPrefix("replayed"), "\(again.stdout)\(again.stderr)")
        #expect(try line.server.query(line.admin, "SELECT count(*) FROM seen_counters") == [["1"]])
        // A station's login may not record taps; the verifier's may not touch rows.
        let station = try verify(line.bench)
        #expect(station.status != 0 && station.stderr.contains("permission denied"), "\(station.stderr)")
        let update = try line.psql(line.conninfo(line.gate), ["-c", "UPDATE records SET state = 'pending'"])
        #expect(update.status != 0 && update.output.contains("permission denied for table records"), "\(update.output)")
        #expect(try line.server.query(line.admin, "SELECT DISTINCT state FROM records") == [["done"]])
    }
}
