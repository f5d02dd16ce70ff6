import Foundation
import Glibc
import ScandRuntime

/// A daemon under measurement: an executable started with posix_spawn (an empty signal mask, nothing but
/// stdin, stdout and stderr inherited), its CPU time and peak memory read from /proc, and reaped only when
/// asked, so that its own CPU time can still be read after it exited.
final class DaemonChild {
    let pid: pid_t
    private(set) var exitStatus: Int32?

    /// Starts `executable` with stdin from /dev/null, stdout and stderr to the files named, and the
    /// environment without what systemd would pass (a state directory, a notify socket, listening sockets).
    init(executable: String, arguments: [String], stdout: String, stderr: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard SpawnActions.closeFrom(3, in: &actions) == 0 else { throw BenchFailure("posix_spawn_file_actions_addclosefrom_np failed") }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnActions.signalsAtDefaults(&attributes)
        let dropped = ["STATE_DIRECTORY", "NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID"]
        let env = ProcessInfo.processInfo.environment.filter { !dropped.contains($0.key) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw BenchFailure("cannot start \(executable): \(String(cString: strerror(rc)))") }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = reap()
        }
    }

    /// The fields of /proc/PID/stat after the command's name: [0] the state, [11] utime, [12] stime.
    private func statFields() -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let paren = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: paren)...].split(separator: " ")
    }

    /// CPU time of the daemon's own threads (user and system; not its decoder processes'), in seconds.
    /// Still readable after it exited, until it is reaped.
    func cpuSeconds() -> Double? {
        guard let f = statFields(), f.count > 12, let user = Double(f[11]), let system = Double(f[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The daemon's peak resident memory so far (VmHWM), in kB; nil once it has exited.
    func peakRSSKilobytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// Whether it has exited (a zombie not yet reaped, whose CPU time is still there to read).
    var hasExited: Bool {
        guard exitStatus == nil else { return true }
        guard let f = statFields(), let state = f.first else { return true }
        return state == "Z" || state == "X"
    }

    /// Waits for the exit and reaps: the exit status, or 128 + the signal that ended it.
    @discardableResult
    func reap() -> Int32 {
        if let exitStatus { return exitStatus }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        exitStatus = status
        return status
    }
}

/// A benchmark that could not measure what it meant to: its reason, for the command line.
package struct BenchFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
