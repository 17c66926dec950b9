import Foundation
import Provisioning
import TestSupport
import Testing

@testable import ProvisionCLI

@Suite struct JobContextTests {
    /// A manifest's `retries` counts extra attempts (docs/manifest.md): the line gets one try more.
    @Test(arguments: [0, 2, 10])
    func retriesAreExtraTries(retries: Int) throws {
        let folder = try JobFolder(rows: 1)
        let path = folder.url.appendingPathComponent("job.json")
        let text = try String(contentsOf: path, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"retries\": 2", with: "\"retries\": \(retries)").utf8).write(to: path)
        let context = CommandContext(
            out: TextSink(), err: TextSink(), environment: [:], currentDirectory: folder.url,
            readStandardInput: { Data() })
        let job = try JobContext.load(path.path, context: context)
        #expect(job.manifest.retries == retries)
        #expect(job.lineJob().tries == retries + 1)
    }
}
