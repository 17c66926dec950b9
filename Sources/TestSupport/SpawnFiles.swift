import Foundation

/// What a child the harness spawns with `posix_spawn` inherits: only the descriptors it is given. A pipe another
/// test opened at that moment (`SQLiteShell`, a `Process`) would otherwise stay open in a long-lived child (pcscd,
/// the PostgreSQL server) and that test's reader would wait for its end forever.
enum SpawnFiles {
    /// Closes every descriptor from `lowest` up in the child of `actions` (glibc 2.34+
    /// `posix_spawn_file_actions_addclosefrom_np`, found at run time: its declaration does not import into Swift).
    static func closeInherited(_ actions: inout posix_spawn_file_actions_t, from lowest: Int32) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
    }

    /// Makes `attributes` start the child with no signal blocked and the usual stop signals at their defaults: the
    /// spawning thread may be a Dispatch worker with signals blocked, and the child must still see SIGTERM.
    static func resetSignals(_ attributes: inout posix_spawnattr_t) {
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }
}
