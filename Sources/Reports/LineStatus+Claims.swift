import Foundation
import Ledger
import NDEF

/// The stations' leases and the open claims in `provision status`: which stations are live, and which claimed
/// rows are stranded (their station is gone; the tag finishes at any station that sees it, or `release`).
extension LineStatus {
    /// A station's lease row (ledger server only).
    public struct Lease: Encodable, Sendable {
        public var station: String
        public var live: Bool
        public var startedAt: Date
        public var heartbeatAt: Date

        enum CodingKeys: String, CodingKey { case station, live, startedAt, heartbeatAt }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(station, forKey: .station)
            try container.encode(live, forKey: .live)
            try container.encode(JSONDocument.timestamp(startedAt), forKey: .startedAt)
            try container.encode(JSONDocument.timestamp(heartbeatAt), forKey: .heartbeatAt)
        }
    }

    /// A claimed row: held by its UID until that tag comes back or an operator releases it.
    public struct Claim: Encodable, Sendable {
        public var row: Int
        public var uid: String
        public var claimedBy: String
        public var claimedAt: Date
        /// Whether the claiming station has no live lease.
        public var stranded: Bool

        enum CodingKeys: String, CodingKey { case row, uid, claimedBy, claimedAt, stranded }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(row, forKey: .row)
            try container.encode(uid, forKey: .uid)
            try container.encode(claimedBy, forKey: .claimedBy)
            try container.encode(JSONDocument.timestamp(claimedAt), forKey: .claimedAt)
            try container.encode(stranded, forKey: .stranded)
        }
    }

    /// Adds the leases of a ledger server (empty for a file) and the open claims. Only the job's stations are
    /// listed (those whose readers attempted its tags or hold its claims: a ledger's other jobs have their own),
    /// and when they hold leases, the line runs while one of them is live.
    public mutating func add(leases: [StationLeaseInfo], claims: [OpenClaim]) {
        let jobStations = Set(
            stations.compactMap { OpenClaim.station(ofReader: $0.reader) } + claims.compactMap(\.station))
        self.leases = leases.filter { jobStations.contains($0.name) }.map {
            Lease(station: $0.name, live: $0.live, startedAt: $0.startedAt, heartbeatAt: $0.heartbeatAt)
        }
        if !self.leases.isEmpty {
            running = self.leases.contains(where: \.live)
            settleETA()
        }
        let live = Set(leases.filter(\.live).map(\.name))
        self.claims = claims.map { claim in
            Claim(
                row: claim.row, uid: Hex.compact(claim.uid), claimedBy: claim.claimedBy,
                claimedAt: claim.claimedAt, stranded: !leases.isEmpty && !(claim.station.map(live.contains) ?? false))
        }
    }

    /// One line per station lease.
    var leaseLines: [String] {
        leases.map { lease in
            "  station \(lease.station): \(lease.live ? "live" : "gone"), heartbeat "
                + "\(Self.duration(max(at.timeIntervalSince(lease.heartbeatAt), 0))) ago"
        }
    }

    /// The stranded claims (the first 20; `--json` lists all).
    var claimLines: [String] {
        let stranded = claims.filter(\.stranded)
        var lines = stranded.prefix(20).map { claim in
            "  stranded: row \(claim.row) (UID \(claim.uid)) claimed by \(claim.claimedBy) "
                + "\(Self.duration(max(at.timeIntervalSince(claim.claimedAt), 0))) ago: present the tag at any "
                + "station, or provision release --row \(claim.row)"
        }
        if stranded.count > 20 {
            lines.append("  … and \(stranded.count - 20) more stranded claims (--json lists all)")
        }
        return lines
    }
}
