import Foundation
import ReaderPCSC

/// The software checks of `provision doctor`: `libnfc` (the linked library's version), `pcsc-lite`
/// (the installed pcscd) and `pcscd` (whether it runs and answers).
enum DoctorSoftware {
    /// The oldest libnfc `provision` is tested with (Debian 12: 1.8.0).
    static let testedLibNFC = SoftwareVersion([1, 8, 0])
    /// The oldest pcsc-lite series `provision` is tested with (Debian 12: 1.9.9).
    static let testedPCSCLite = SoftwareVersion([1, 9])

    /// `libnfc`: the version `nfc_version()` reports, warn when older than `testedLibNFC`.
    static func libnfcCheck(version text: String) -> DoctorCheck {
        guard let version = SoftwareVersion(parsing: text) else {
            return DoctorCheck(
                name: "libnfc", status: .warn, detail: "libnfc reports version '\(text)', which is not a version number"
            )
        }
        guard version >= testedLibNFC else {
            return DoctorCheck(
                name: "libnfc", status: .warn,
                detail: "libnfc \(text) is older than \(testedLibNFC), the version provision is tested with: "
                    + "install libnfc \(testedLibNFC) or later (Debian 12: apt-get install libnfc6)")
        }
        return DoctorCheck(name: "libnfc", status: .ok, detail: "libnfc \(text) (nfc_version)")
    }

    /// The installed pcscd: its Debian package version, else what `pcscd --version` says.
    static func probePCSCLite() async -> DoctorCheck {
        let package = await DoctorProbe.run("dpkg-query", ["-W", "-f=${Status}\t${Version}", "pcscd"])
        if case .finished(0, let output, _) = package, let version = installedPackageVersion(output) {
            return pcscLiteCheck(version: version, source: "Debian package pcscd")
        }
        switch await DoctorProbe.run("pcscd", ["--version"]) {
        case .finished(0, let output, _):
            return pcscLiteCheck(version: output, source: "pcscd --version")
        case .timedOut:
            return DoctorCheck.timedOut("pcsc-lite", "pcscd --version", seconds: DoctorProbe.toolSeconds)
        default:
            return DoctorCheck(
                name: "pcsc-lite", status: .warn,
                detail: "pcscd is not installed: PC/SC readers cannot be used (sudo apt-get install pcscd, "
                    + "or make deps)")
        }
    }

    /// `pcsc-lite` from a version text (`1.9.9-2`, `pcsc-lite version 1.9.9.`) and where it came from.
    static func pcscLiteCheck(version text: String, source: String) -> DoctorCheck {
        guard let version = SoftwareVersion(parsing: text) else {
            return DoctorCheck(
                name: "pcsc-lite", status: .warn, detail: "\(source) gave no version number: '\(oneLine(text))'")
        }
        let shown = text.contains("version") ? version.description : oneLine(text)
        guard version >= testedPCSCLite else {
            return DoctorCheck(
                name: "pcsc-lite", status: .warn,
                detail: "pcscd \(shown) (\(source)) is older than \(testedPCSCLite), the series provision is "
                    + "tested with: upgrade pcscd")
        }
        return DoctorCheck(name: "pcsc-lite", status: .ok, detail: "pcscd \(shown) (\(source))")
    }

    /// The version from `dpkg-query -W -f='${Status}\t${Version}'` output when the package is installed
    /// (`install ok installed\t1.9.9-2`), `nil` when it is absent or only its configuration is left.
    static func installedPackageVersion(_ output: String) -> String? {
        let fields = output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\t")
        guard fields.count == 2, fields[0].hasSuffix(" installed"), !fields[1].isEmpty else { return nil }
        return String(fields[1])
    }

    /// `pcscd`: whether the daemon answers `SCardListReaders`, judged with the process list.
    ///
    /// - Parameters:
    ///   - answer: pcsc-lite's answer to the reader listing, `nil` when it did not come in time.
    ///   - processIDs: the PIDs of running `pcscd` processes.
    /// - Returns: ok when pcscd answered, else a warning saying whether it runs and how to start it.
    static func pcscdCheck(answer: Result<[String], PCSCError>?, processIDs: [Int32]) -> DoctorCheck {
        let running = processIDs.isEmpty ? "" : " (pid " + processIDs.map(String.init).joined(separator: ", ") + ")"
        switch answer {
        case nil:
            return DoctorCheck(
                name: "pcscd", status: .warn,
                detail: "pcscd\(running) did not answer within \(DoctorProbe.describe(DoctorProbe.librarySeconds)): "
                    + "restart it (sudo systemctl restart pcscd)")
        case .success(let names):
            return DoctorCheck(
                name: "pcscd", status: .ok,
                detail: "pcscd is running\(running) and answers; it knows \(names.count) "
                    + "reader\(names.count == 1 ? "" : "s")")
        case .failure(let error) where processIDs.isEmpty:
            return DoctorCheck(
                name: "pcscd", status: .warn,
                detail: "pcscd is not running (SCardListReaders: \(reason(error))): PC/SC readers cannot be used; "
                    + "start it (sudo systemctl start pcscd.socket, or run pcscd as root)")
        case .failure(let error):
            return DoctorCheck(
                name: "pcscd", status: .warn,
                detail: "pcscd runs\(running) but does not answer (SCardListReaders: \(reason(error))): restart it "
                    + "(sudo systemctl restart pcscd)")
        }
    }

    /// The PIDs of processes whose `/proc/PID/comm` is `name`.
    static func processIDs(named name: String) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                let comm = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
            else { return nil }
            return pid
        }.sorted()
    }

    /// pcsc-lite's own text for the status underneath (`Service not available. (8010001Dh)`), else the message.
    private static func reason(_ error: PCSCError) -> String {
        error.status.map { "\($0)" } ?? error.message
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
}
