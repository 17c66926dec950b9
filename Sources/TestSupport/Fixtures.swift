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
    /// A fresh folder holding copies of the repository's `jobs/` and `templates/` (the sample jobs), so
    /// a run there leaves the repository untouched.
    public static func sampleJobsCopy(_ label: String = "samples") throws -> URL {
        let folder = try temporaryDirectory(label)
        for name in ["jobs", "templates"] {
            try FileManager.default.copyItem(
                at: repositoryRoot.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return folder
    }

    public static func temporaryDirectory(_ label: String = "provision-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
