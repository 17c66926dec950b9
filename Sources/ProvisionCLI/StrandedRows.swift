import Foundation
import Ledger
import Provisioning
import Reports

/// The rows a station found nothing to claim in, each named with the station holding it, so the operator can
/// act: `row 141: s2, lease expired 14 min ago; restart s2 or provision release --row 141`.
enum StrandedRows {
    /// Prints the job's claimed rows and their holders to `sink` (a step that rides out a dropped connection).
    static func report(_ job: JobContext, ledger: any LedgerStore, outage: OutageRetry, to sink: TextSink)
        async throws(CLIError)
    {
        let (claims, leases) = try await outage.runForCommand("end of run", on: ledger) {
            let claims = try await ledger.openClaims(job: job.manifest.job)
            return (claims, try await (ledger as? PostgresLedger)?.stationLeases() ?? [])
        }
        sink.line("error: every row left is claimed by another station:")
        for line in lines(claims: claims, leases: leases, now: Date()) { sink.line("  \(line)") }
    }

    /// One line per claimed row (the first 20, then how many more): its holder and, on a ledger server, whether
    /// the holder's lease is live or since when it has run out.
    static func lines(claims: [OpenClaim], leases: [StationLeaseInfo], now: Date) -> [String] {
        var lines = claims.prefix(20).map { claim in
            let holder = claim.station ?? claim.claimedBy
            let lease = leases.first { $0.name == claim.station }
            let state: String
            if let lease {
                state =
                    lease.live
                    ? "live, lease held" : "lease expired \(ago(now.timeIntervalSince(lease.expiresAt))) ago"
            } else {
                state = "claimed \(ago(now.timeIntervalSince(claim.claimedAt))) ago"
            }
            let action = lease?.live == true ? "let \(holder) finish it" : "restart \(holder)"
            return "row \(claim.row): \(holder), \(state); \(action) or provision release --row \(claim.row)"
        }
        if claims.count > 20 {
            lines.append("… and \(claims.count - 20) more claimed rows (provision status lists all)")
        }
        return lines
    }

    /// A past interval for a person: seconds, minutes or hours.
    private static func ago(_ seconds: TimeInterval) -> String {
        let seconds = max(Int(seconds.rounded()), 0)
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h"
    }
}
