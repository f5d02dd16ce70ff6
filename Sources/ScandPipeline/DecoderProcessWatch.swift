import Foundation

/// Notices decoder processes that ended between frames (killed, or crashed while idle). The worker replaces
/// such a process at its next read without a failed pass to show for it; this is how they are counted.
struct DecoderProcessWatch {
    /// Ended processes already counted that the worker has not replaced yet (a lane unused for a frame).
    private var counted: Set<Int32> = []

    /// How many of `pids` (the worker's running processes) have ended since the last call. Checked with
    /// WNOWAIT: the process stays for the worker to reap.
    mutating func ended(among pids: [Int32]) -> Int {
        counted.formIntersection(pids)
        var fresh = 0
        for pid in pids where !counted.contains(pid) && Self.hasEnded(pid) {
            counted.insert(pid)
            fresh += 1
        }
        return fresh
    }

    static func hasEnded(_ pid: Int32) -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return errno == ECHILD }
        return info._sifields._sigchld.si_pid == pid
    }
}
