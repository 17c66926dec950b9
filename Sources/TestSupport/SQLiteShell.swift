import Foundation

/// Reads a ledger the way an engineer at the shell does, without the code under test: `sqlite3`.
public enum SQLiteShell {
    /// Runs `sqlite3 -separator SEPARATOR PATH SQL` and returns its rows, each split at `separator`.
    public static func query(_ path: String, _ sql: String, separator: String = ",") throws -> [[String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        // A busy ledger (a writer mid-checkpoint) is waited for, not read as an empty answer.
        process.arguments = ["-cmd", ".timeout 5000", "-separator", separator, path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        _ = process.waitReaping()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            $0.split(separator: Character(separator), omittingEmptySubsequences: false).map(String.init)
        }
    }
}
