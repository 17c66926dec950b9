import Foundation

/// Locates repository files for tests (fixtures, sample jobs, the built executable).
public enum Fixtures {
    /// The repository root (two levels above `Sources/TestSupport`).
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A file under `Tests/Fixtures/`.
    public static func url(_ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(relativePath)
    }

    /// The bytes of a file under `Tests/Fixtures/`.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// A fresh empty temporary directory.
    public static func temporaryDirectory(_ label: String = "provision-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
