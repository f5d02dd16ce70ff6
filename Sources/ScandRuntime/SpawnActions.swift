import Glibc

/// What posix_spawn lacks in Swift's Glibc module, for every child scand starts (a scan hook's command, a
/// measured daemon, a test's process).
public enum SpawnActions {
    /// Adds "close every descriptor from `lowest` up" to `actions`, so the child inherits only what was set up
    /// below it: glibc's posix_spawn_file_actions_addclosefrom_np (2.34; Debian 12 has 2.36), which Swift's
    /// Glibc module does not import. Returns its result, or ENOSYS where glibc lacks it.
    public static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) -> Int32 {
        addCloseFrom(&actions, lowest)
    }

    /// Sets `attributes` so that the child starts with no signal blocked and SIGTERM, SIGINT, SIGHUP, SIGPIPE and
    /// SIGCHLD at their defaults, whatever the starting thread blocks or ignores (the runtime's and the test
    /// runner's threads block some: a child would inherit that and never end on SIGTERM).
    public static func signalsAtDefaults(_ attributes: inout posix_spawnattr_t) {
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }

    private static let addCloseFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return { _, _ in ENOSYS }
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
}
