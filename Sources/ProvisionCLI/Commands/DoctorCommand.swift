import Foundation
import ReaderLibNFC

/// `provision doctor`: checks what an encoding station needs, one line per check.
struct DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "check this machine for a line: readers, libraries, pcscd, permissions, clock, disk"
    static let help = """
        Usage: provision doctor [--json] [--reports DIR]

        Checks the environment an encoding station needs and prints one line per check: ok, warn or
        fail, what was found and what to do. Nothing is written and no tag is touched; every probe is
        bounded (a reader listing by 5 s, a tool by 3 s, a folder by 2 s), so doctor never hangs.

        Checks:
          readers       libnfc devices and PC/SC readers found (as 'provision readers' lists them);
                        warn when there is none (then only the simulator, --reader sim:CHIP, runs jobs)
          tag-families  what each reader can reach: Type 2 (ISO 14443-A) on all of them;
                        a PN532 through libnfc cannot reach ISO 15693 (Type 5); a PC/SC reader reaches
                        what the reader itself supports
          libnfc        the linked libnfc's version (nfc_version); warn when older than 1.8.0
          pcsc-lite     the installed pcscd's version (its Debian package, else 'pcscd --version');
                        warn when pcscd is not installed or older than 1.9
          pcscd         whether pcscd runs and answers (SCardListReaders, and its process); warn if not
          devices       whether this user can open the serial (/dev/ttyUSB*, ttyACM*, ttyAMA*) and USB
                        nodes of libnfc readers, and is in groups dialout and plugdev; warn if not
          lock-folder   whether /run/lock is writable (each nfc: reader takes a lock file there);
                        fail when it is not and a libnfc reader is attached, warn without one
          clock         the system time is plausible (fail before 2025 or from 2100 on: ledger and
                        report times come from it) and NTP has synchronised it (timedatectl show);
                        warn when not synchronised or when that cannot be checked
          disk          free space and writability of the current folder and the reports folder:
                        fail when not writable or below 100 MiB free, warn below 1 GiB

        Options:
          --json           print {"version": 2, "status": S, "checks": [{name, status, detail}]}
                           with S and each status ok | warn | fail (stable, docs/json.md;
                           the detail text is for people and may change)
          --reports DIR    the reports folder to check (default: reports, as jobs use by default)

        Examples:
          provision doctor
          provision doctor --json --reports /srv/line/reports

        Exit codes: 0 nothing failed (warnings allowed), 1 a check failed, 64 usage.

        """

    /// `--json`: print the stable document instead of the lines.
    var json = false
    /// `--reports DIR`: the reports folder to check.
    var reports = "reports"

    static func parse(_ arguments: [String]) throws(CLIError) -> DoctorCommand {
        let args = try Arguments(arguments, flags: ["json"], options: ["reports"])
        try args.requirePositionals(0...0, usage: "provision doctor [--json] [--reports DIR]")
        let reports = args.value("reports") ?? "reports"
        guard !reports.isEmpty else { throw CLIError.usage("option '--reports' needs a folder", option: "reports") }
        return DoctorCommand(json: args.flag("json"), reports: reports)
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let report = await Self.examine(reportsFolder: reports, base: context.currentDirectory)
        if json {
            try context.output.document(report)
        } else {
            context.output.write(Self.text(report))
        }
        return report.exitCode
    }

    /// Runs every check, the probes concurrently, each bounded in time.
    static func examine(reportsFolder: String, base: URL) async -> DoctorReport {
        async let readers = DoctorReaders.probe()
        async let pcscLite = DoctorSoftware.probePCSCLite()
        async let timedatectl = DoctorProbe.run("timedatectl", ["show"])
        async let pids = DoctorProbe.bounded(seconds: DoctorProbe.fileSystemSeconds) {
            DoctorSoftware.processIDs(named: "pcscd")
        }
        async let folders = DoctorProbe.bounded(seconds: DoctorProbe.fileSystemSeconds) {
            [
                DoctorDisk.examine(role: "current folder", path: base.path, base: base),
                DoctorDisk.examine(role: "reports folder", path: reportsFolder, base: base),
            ]
        }
        async let lockWritable = DoctorProbe.bounded(seconds: DoctorProbe.fileSystemSeconds) {
            access(LibNFC.lockFolder, W_OK | X_OK) == 0
        }
        let findings = await readers
        let connstrings = (findings.nfc ?? []).filter(\.available).map(\.name)
        let nodes = await DoctorProbe.bounded(seconds: DoctorProbe.fileSystemSeconds) {
            (DoctorDevices.currentUser(), DoctorDevices.readerNodes(connstrings: connstrings))
        }
        let seconds = DoctorProbe.fileSystemSeconds
        var checks = [
            DoctorReaders.readersCheck(findings), DoctorReaders.familiesCheck(findings),
            DoctorSoftware.libnfcCheck(version: LibNFC.version), await pcscLite,
            DoctorSoftware.pcscdCheck(answer: findings.pcsc, processIDs: await pids ?? []),
        ]
        if let (user, found) = nodes {
            checks.append(DoctorDevices.devicesCheck(user: user, nodes: found))
        } else {
            checks.append(.timedOut("devices", "the device nodes", seconds: seconds))
        }
        if let writable = await lockWritable {
            let path = LibNFC.lockFolder
            checks.append(
                DoctorDevices.lockFolderCheck(path: path, writable: writable, libnfcReaders: connstrings.count))
        } else {
            checks.append(.timedOut("lock-folder", LibNFC.lockFolder, seconds: seconds))
        }
        checks.append(DoctorClock.clockCheck(now: Date(), timedatectl: await timedatectl))
        if let examined = await folders {
            checks.append(DoctorDisk.diskCheck(examined))
        } else {
            checks.append(.timedOut("disk", "the file system", seconds: seconds))
        }
        return DoctorReport(checks: checks)
    }

    /// One line per check (`ok    readers       …`), then a count line; not a stable format.
    static func text(_ report: DoctorReport) -> String {
        let width = (DoctorCheck.names.map(\.count).max() ?? 12) + 2
        var text = ""
        for check in report.checks {
            text +=
                check.status.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
                + check.name.padding(toLength: width, withPad: " ", startingAt: 0) + check.detail + "\n"
        }
        let failed = report.checks.filter { $0.status == .fail }.count
        let warned = report.checks.filter { $0.status == .warn }.count
        text +=
            "\n\(report.checks.count) checks: \(failed) failed, \(warned) "
            + (warned == 1 ? "warning" : "warnings") + (failed > 0 ? " (exit 1)" : "") + "\n"
        return text
    }
}
