import Foundation

/// Writes a suite's figures as `<name>.json` into `$PROVISION_RELIABILITY_OUT` when it is set
/// (`scripts/reliability.py` collects them into `reports/reliability.json`); otherwise does nothing.
enum ReliabilityFigures {
    static func write(_ name: String, _ figures: [String: Any]) throws {
        guard let folder = ProcessInfo.processInfo.environment["PROVISION_RELIABILITY_OUT"] else { return }
        let data = try JSONSerialization.data(withJSONObject: figures, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: folder).appendingPathComponent("\(name).json"))
    }
}
