import Foundation
import Ledger
import Provisioning

/// `--ledger` and `--station` as every ledger command reads them: where the ledger is (overriding the
/// manifest's `ledger`) and which station this process is on a line of stations.
struct LedgerChoice: Sendable, Hashable {
    /// `--ledger FILE|URI`, else the manifest's.
    var ledger: String?
    /// `--station NAME`, else (on a server) the host name.
    var station: String?
    /// `--insecure-ledger`: a ledger server over TCP without a verified certificate (`LedgerTLS`).
    var insecure = false

    /// The usage lines the commands' help shares.
    static let help = """
          --ledger FILE|URI  the ledger: a SQLite file, or a PostgreSQL server for a line of stations
                           (postgresql://host/db or a libpq key=value string; never a password: use
                           PGPASSWORD or ~/.pgpass); overrides the manifest's "ledger"

        """

    /// Reads the options; a station name is checked here (exit 64).
    init(_ args: Arguments) throws(CLIError) {
        ledger = args.value("ledger")
        station = args.value("station")
        insecure = args.flag(LedgerTLS.flag)
        if let station, !LedgerName.isValid(station) {
            throw .usage(
                "station name '\(station)' must be \(LedgerName.rule) (it prefixes reader names)",
                option: "station")
        }
    }

    init(ledger: String? = nil, station: String? = nil) {
        self.ledger = ledger
        self.station = station
    }

    /// The ledger of `manifest`, or `--ledger` (relative paths against the current directory).
    func location(for manifest: Manifest?, context: CommandContext) throws(CLIError) -> LedgerLocation {
        if let ledger {
            do {
                return try LedgerLocation(ledger, relativeTo: context.currentDirectory)
            } catch {
                throw .usage("--ledger: \(error.message)", option: "ledger")
            }
        }
        guard let manifest else { throw .usage("give a MANIFEST or --ledger", option: "ledger") }
        return manifest.ledger
    }

    /// The station name: `--station`, else the host name's first label (on a server every process has one).
    var stationName: String {
        if let station { return station }
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "station"
        let cleaned = String(host.map { LedgerName.characters.contains($0) ? $0 : "-" }.prefix(64))
        return cleaned.isEmpty ? "station" : cleaned
    }
}
