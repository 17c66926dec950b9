internal import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps key material out of core files and away from other processes of the same user: a process that holds a
/// key calls `disableCoreDumps()` before the key's bytes or its token session enter it.
///
/// It sets the process non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`: no core file, and `/proc/PID/mem` and ptrace
/// closed to same-user processes without `CAP_SYS_PTRACE`) and `RLIMIT_CORE` to 0, soft and hard, so a child cannot
/// raise it again. Done once per process; later calls return the first outcome. Both stay until `exec`, where the
/// kernel resets dumpability (the limit is inherited).
public enum ProcessHardening {
    /// The first call's outcome, computed once (a `static let` is initialised once, thread-safely).
    private static let outcome: [String] = harden()

    /// Disables core dumps for this process (once) and returns what failed, in words; empty when both steps held.
    @discardableResult
    public static func disableCoreDumps() -> [String] { outcome }

    /// Whether this process is non-dumpable and its core file limit is 0 (soft and hard).
    public static var coreDumpsDisabled: Bool {
        var limit = rlimit()
        guard getrlimit(coreResource, &limit) == 0 else { return false }
        return csystem_get_dumpable() == 0 && limit.rlim_cur == 0 && limit.rlim_max == 0
    }

    private static var coreResource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_CORE.rawValue) }

    private static func harden() -> [String] {
        var failures: [String] = []
        if csystem_set_not_dumpable() != 0 {
            failures.append("prctl(PR_SET_DUMPABLE, 0) failed: \(String(cString: strerror(errno)))")
        }
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        if setrlimit(coreResource, &none) != 0 {
            failures.append("setrlimit(RLIMIT_CORE, 0) failed: \(String(cString: strerror(errno)))")
        }
        return failures
    }
}
