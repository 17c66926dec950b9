import Reports

/// How one `provision doctor` check came out; ordered from good to bad.
enum DoctorStatus: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    /// Nothing to do.
    case ok
    /// Works, with a limit worth knowing (no reader, NTP unknown, little disk space).
    case warn
    /// A run on this machine would fail or record wrong data until it is fixed.
    case fail

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .ok: 0
        case .warn: 1
        case .fail: 2
        }
    }

    /// The worst of `statuses`; `ok` for none.
    static func worst(_ statuses: some Sequence<DoctorStatus>) -> DoctorStatus {
        statuses.max() ?? .ok
    }
}

/// One line of `provision doctor`: a stable check name, its status, and what was found and what to do.
struct DoctorCheck: Sendable, Hashable, Codable {
    /// The stable name (`readers`, `tag-families`, `libnfc`, …; see `DoctorCheck.names`).
    var name: String
    /// ok, warn or fail.
    var status: DoctorStatus
    /// What was found and, unless ok, what to do about it.
    var detail: String

    /// Every check `provision doctor` runs, in the order it prints them.
    static let names = [
        "readers", "tag-families", "libnfc", "pcsc-lite", "pcscd", "devices", "lock-folder", "clock", "disk",
    ]

    /// A check that did not finish within its time bound: a warning naming the probe.
    static func timedOut(_ name: String, _ probe: String, seconds: Double) -> DoctorCheck {
        DoctorCheck(
            name: name, status: .warn,
            detail: "\(probe) did not answer within \(DoctorProbe.describe(seconds)); check it by hand")
    }
}

/// Everything `provision doctor` found: the checks in order, and the exit code they give.
struct DoctorReport: Sendable, Hashable, Codable {
    /// The `--json` document version (docs/json.md).
    var version = JSONDocument.version
    /// The overall status: the worst of the checks.
    var status: DoctorStatus
    /// Every check, in `DoctorCheck.names` order.
    var checks: [DoctorCheck]

    /// A report over `checks`.
    init(checks: [DoctorCheck]) {
        self.checks = checks
        status = DoctorStatus.worst(checks.map(\.status))
    }

    /// 0 when nothing failed (warnings included), 1 when a check failed.
    var exitCode: ExitCode { status == .fail ? .failure : .success }
}
