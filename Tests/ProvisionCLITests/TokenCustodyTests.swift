import Foundation
import NDEF
import TestSupport
import Testing

/// The master behind `p11-kit server`, a separate process reached through p11-kit's client module as a network HSM
/// would be: a 100-tag SUN job never has the master's bytes in its memory, and a job whose token goes away pauses,
/// reconnects when it is back and finishes with every row and key change accounted for.
@Suite(.serialized) struct TokenCustodyTests {
    /// A served token holding `master` (label `brand-master`) and a 0600 PIN file.
    struct Served {
        let token: SoftHSMToken
        var server: P11KitServer

        /// The manifest key entry naming the master through the client module.
        var keyEntry: String {
            let uri =
                "pkcs11:token=\(token.label);object=brand-master;type=secret-key?module-path=\(server.clientModulePath)"
                + "&pin-source=file:\(token.pinFile)"
            return #"{"pkcs11": "\#(uri)"}"#
        }
        var environment: [String: String] { ["P11_KIT_SERVER_ADDRESS": server.address] }
    }

    static let master = try! #require(Hex.bytes("5A1C0FFEE0DDBA11CAFE0123456789AB"))

    static func served() async throws -> Served {
        let token = try SoftHSMToken.make()
        try await token.importKeys([.init(label: "brand-master", bytes: master)])
        return Served(token: token, server: try P11KitServer.start(token))
    }

    /// A keyed SUN job of `rows` rows whose master is `key` (a manifest key entry).
    static func job(rows: Int, key: String) throws -> JobFolder {
        let folder = try RunNTAG424Tests.folder(rows: rows)
        let manifest = folder.url.appendingPathComponent("job.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try Data(text.replacingOccurrences(of: #"{"env": "BRAND_KEY"}"#, with: key).utf8).write(to: manifest)
        return folder
    }

    /// Waits (bounded) until the simulator has stored `tags` tag images of `folder` while `child` still runs: the
    /// store's files, not the ledger, which a busy job keeps locked against a second reader.
    static func waitForTags(_ tags: Int, _ folder: JobFolder, _ child: ChildProvision) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline, child.process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.store.path)) ?? []
            if names.filter({ $0.hasSuffix(".bin") }).count >= tags { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        let stored = (try? FileManager.default.contentsOfDirectory(atPath: folder.store.path))?.count ?? -1
        let running = child.process.isRunning
        Issue.record("\(tags) tags not stored in time (\(stored) in the store, running \(running)): \(child.stderr)")
    }

    /// How often the master's bytes, and its hex text in either case, appear in process `pid`'s readable memory.
    static func occurrences(of key: [UInt8], in pid: Int32) throws -> Int {
        let needles = [
            Data(key), Data(Hex.compact(key).utf8), Data(Hex.compact(key).lowercased().utf8),
        ]
        let maps = try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)
        guard let memory = FileHandle(forReadingAtPath: "/proc/\(pid)/mem") else {
            throw HarnessError("cannot open /proc/\(pid)/mem")
        }
        defer { try? memory.close() }
        var found = 0
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, fields[1].hasPrefix("r") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], !line.hasSuffix("[vvar]"), !line.hasSuffix("[vsyscall]")
            else { continue }
            do {
                try memory.seek(toOffset: bounds[0])
                guard let bytes = try memory.read(upToCount: Int(bounds[1] - bounds[0])) else { continue }
                found += needles.reduce(0) { $0 + Self.count($1, in: bytes) }
            } catch {
                continue  // a region that vanished or cannot be read meanwhile
            }
        }
        return found
    }

    /// How often `needle` occurs in `haystack`.
    static func count(_ needle: Data, in haystack: Data) -> Int {
        var found = 0
        var start = haystack.startIndex
        while let range = haystack.range(of: needle, in: start..<haystack.endIndex) {
            found += 1
            start = range.upperBound
        }
        return found
    }

    @Test func theMasterNeverEntersTheProcessDuringA100TagJobWhileAFileKeyIsFound() async throws {
        let served = try await Self.served()
        defer {
            served.server.stop()
            served.token.remove()
        }
        let hex = Hex.compact(Self.master)
        for (name, key, env) in [
            ("token", served.keyEntry, served.environment), ("file", #"{"env": "BRAND_KEY"}"#, ["BRAND_KEY": hex]),
        ] {
            let folder = try Self.job(rows: 100, key: key)
            let reader = folder.sim("ntag424", uid: "04C40000000001", options: "count=100&arrival=60")
            let child = try ChildProvision(
                ["run", "job.json", "--quiet", "--reader", reader], workingDirectory: folder.url, environment: env)
            try await Self.waitForTags(40, folder, child)
            guard child.process.isRunning else { continue }  // recorded by waitForTags
            // The job is stopped (SIGSTOP) while its memory is read, so the scan sees it mid-job however long the
            // scan takes on a busy machine; it carries on afterwards (SIGCONT).
            let pid = child.pid
            kill(pid, SIGSTOP)
            let stored = try FileManager.default.contentsOfDirectory(atPath: folder.store.path)
                .filter { $0.hasSuffix(".bin") }.count
            let hits: Int
            do {
                hits = try await onThread { try Self.occurrences(of: Self.master, in: pid) }
            } catch {
                kill(pid, SIGCONT)
                throw error
            }
            kill(pid, SIGCONT)
            #expect(stored < 100, "the scan ran mid-job (\(stored) of 100 tags presented)")
            let status = try await child.wait()
            #expect(status == 0, "\(name): \(child.stderr)")
            #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'done'") == [["100"]])
            if name == "token" {
                #expect(hits == 0, "the master's bytes are in the process holding only a token key")
            } else {
                #expect(hits > 0, "the scan finds a master that is in the process: it can find one")
            }
        }
    }

    @Test func aTokenThatGoesAwayPausesTheLineAndTheJobFinishesWhenItIsBack() async throws {
        var served = try await Self.served()
        defer {
            served.server.stop()
            served.token.remove()
        }
        let folder = try Self.job(rows: 30, key: served.keyEntry)
        // A tag every 300 ms: the wait for the sixth must not miss the whole job when the suite starves it.
        let reader = folder.sim("ntag424", uid: "04C40000000001", options: "count=30&arrival=300")
        let child = try ChildProvision(
            ["run", "job.json", "--quiet", "--reader", reader], workingDirectory: folder.url,
            environment: served.environment)
        try await Self.waitForTags(6, folder, child)
        served.server.stop()
        let deadline = ContinuousClock.now + .seconds(60)
        while !child.stderr.contains("went away"), child.process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(child.stderr.contains("went away"), "\(child.stderr)")
        let pausedAt = try FileManager.default.contentsOfDirectory(atPath: folder.store.path)
            .filter { $0.hasSuffix(".bin") }.count
        served.server = try P11KitServer.start(served.token)
        let status = try await child.wait()
        #expect(status == 0, "\(child.stderr)")
        #expect(child.stderr.contains("is back after"), "\(child.stderr)")
        #expect(pausedAt < 30, "the token went away mid-job, with tags still to come")
        #expect(try folder.query("SELECT state, count(*) FROM records GROUP BY state") == [["done", "30"]])
        // Every tag's five key changes are journaled done; none is left intended or abandoned.
        #expect(try folder.query("SELECT state, count(*) FROM key_changes GROUP BY state") == [["done", "150"]])
        #expect(!child.stderr.contains(Hex.compact(Self.master)))
    }
}
