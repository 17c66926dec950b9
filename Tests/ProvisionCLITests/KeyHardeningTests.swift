import Foundation
import NDEF
import TestSupport
import Testing

/// A `provision` process that loads a key cannot dump core (docs/keys.md, "Hardening"), seen from outside the process:
/// its `/proc/PID/limits` core line reads 0 and 0, and its `/proc/PID` files belong to root, which the kernel does
/// only for a process that is not dumpable; and a process of its own user cannot open its `/proc/PID/mem`. The same
/// run holding no key keeps all three, so hardening is tied to keys.
///
/// The child waits for a tag that never comes (`arrival=`), so it is observed while it holds the key. Run as root,
/// the child runs as another user (`setpriv`), because a root process's files belong to root whatever its
/// dumpability. Dumpability is reset by `exec`, so that check holds in any test process; the core limit is
/// inherited, and once an in-process test has loaded a key this process's limit is 0 too (raising it back needs
/// `CAP_SYS_RESOURCE`): the limit then tells nothing, and the no-key child's limit equal to this process's is what
/// shows the limit is not lowered for it.
@Suite(.serialized) struct KeyHardeningTests {
    /// The user the child runs as when the tests run as root (nobody).
    static let childUser: UInt32 = 65534

    /// The core limit and user a child starts with.
    typealias Start = (limits: (soft: String, hard: String), user: UInt32)

    @Test func aRunHoldingAKeyCannotDumpCore() async throws {
        let (child, expected) = try await Self.startRun(keyed: true)
        let limits = try Self.coreLimits(of: child.pid)
        #expect(limits.soft == "0" && limits.hard == "0", "core limit \(limits), started with \(expected.limits)")
        #expect(try Self.owner(of: child.pid) == 0, "/proc/\(child.pid) belongs to its user: still dumpable")
        #expect(expected.user != 0)
        #expect(try !Self.userCanOpenMemory(of: child.pid, user: expected.user), "/proc/\(child.pid)/mem opened")
        #expect(!child.stderr.contains(Hex.compact(authTestKey)) && !child.stderr.contains("core dumps could not"))
        try await child.stop()
    }

    @Test func aRunHoldingNoKeyKeepsItsCoreLimitAndStaysDumpable() async throws {
        let (child, expected) = try await Self.startRun(keyed: false)
        let limits = try Self.coreLimits(of: child.pid)
        #expect(limits.soft == expected.limits.soft && limits.hard == expected.limits.hard, "core limit \(limits)")
        #expect(try Self.owner(of: child.pid) == expected.user)
        #expect(try Self.userCanOpenMemory(of: child.pid, user: expected.user))
        try await child.stop()
    }

    /// Starts `provision run` of a one-row job (with a MAC'd URL under an environment key when `keyed`) that waits
    /// ten minutes for its tag, and returns once it says so, with the core limit and user it started with.
    static func startRun(keyed: Bool) async throws -> (ChildProvision, Start) {
        let keys = keyed ? #", "keys": {"brand": {"env": "BRAND_KEY"}}"# : ""
        let folder = try JobFolder(rows: 1, lock: false, extra: keys)
        let uri = "https://example.com/t?u={{uid}}" + (keyed ? "&m={{mac:brand:uid}}" : "")
        try Data(#"{"records": [{"type": "uri", "uri": "\#(uri)"}]}"#.utf8)
            .write(to: folder.url.appendingPathComponent("template.json"))
        var launcher: [String] = []
        var expected: Start = (try coreLimits(of: getpid()), getuid())
        if getuid() == 0 {
            // Another user may write the job's reports here; the files in it are already world-readable.
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.url.path)
            launcher = ["/usr/bin/setpriv", "--reuid=\(childUser)", "--regid=\(childUser)", "--clear-groups", "--"]
            expected.user = childUser
        }
        let child = try ChildProvision(
            ["run", "job.json", "--reader", "sim:ntag215?uid=04000000000001&arrival=600000"],
            workingDirectory: folder.url, environment: ["BRAND_KEY": Hex.compact(authTestKey)], launcher: launcher)
        for _ in 0..<3_000 where child.process.isRunning && !child.stderr.contains("place a tag") {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(child.process.isRunning && child.stderr.contains("place a tag"), "\(child.stderr)")
        return (child, expected)
    }

    /// The "Max core file size" soft and hard limits of process `pid`, as `/proc/PID/limits` writes them.
    static func coreLimits(of pid: Int32) throws -> (soft: String, hard: String) {
        let text = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
        let fields = line.dropFirst("Max core file size".count).split(separator: " ")
        try #require(fields.count >= 2, "\(line)")
        return (String(fields[0]), String(fields[1]))
    }

    /// Whether a process of `user` without privileges (the child's own user: what an attacker on that account has)
    /// may open `/proc/PID/mem`; the kernel allows it only while the target is dumpable.
    static func userCanOpenMemory(of pid: Int32, user: UInt32) throws -> Bool {
        guard getuid() == 0 else {
            let descriptor = open("/proc/\(pid)/mem", O_RDONLY)
            if descriptor >= 0 { close(descriptor) }
            return descriptor >= 0
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        probe.arguments = [
            "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--", "/bin/sh", "-c", "exec 3</proc/\(pid)/mem",
        ]
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    /// The user owning `/proc/PID/status`: root for a process that is not dumpable, else the process's user.
    static func owner(of pid: Int32) throws -> UInt32 {
        var status = stat()
        try #require(stat("/proc/\(pid)/status", &status) == 0)
        return status.st_uid
    }
}
