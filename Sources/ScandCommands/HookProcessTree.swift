import Foundation
import Glibc

/// The processes a `--exec` command started, wherever they went: a child that called setsid has left the
/// command's process group, and the group's signal missed it. Found by parent through /proc while the
/// command still runs; each is kept with its start time, so a pid used again meanwhile is not signalled.
struct HookProcessTree: Sendable {
    private(set) var members: [pid_t: UInt64] = [:]

    /// Every process below `root` now (`root` itself not).
    static func below(_ root: pid_t) -> HookProcessTree {
        var children: [pid_t: [pid_t]] = [:]
        var started: [pid_t: UInt64] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = stat(pid) else { continue }
            children[stat.parent, default: []].append(pid)
            started[pid] = stat.started
        }
        var tree = HookProcessTree()
        var next = children[root] ?? []
        while let pid = next.popLast() {
            guard tree.members[pid] == nil, let time = started[pid] else { continue }
            tree.members[pid] = time
            next += children[pid] ?? []
        }
        return tree
    }

    /// This tree and what is below `root` now (a command that ignored SIGTERM may have started more).
    func adding(below root: pid_t) -> HookProcessTree {
        var tree = self
        tree.members.merge(Self.below(root).members) { old, _ in old }
        return tree
    }

    /// Sends `signal` to each member still running as the process it was.
    func signal(_ signal: Int32) {
        for (pid, started) in members where Self.stat(pid)?.started == started {
            _ = kill(pid, signal)
        }
    }

    /// The parent and start time (clock ticks after boot) in `/proc/<pid>/stat`.
    static func stat(_ pid: pid_t) -> (parent: pid_t, started: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let fields = text.split(separator: ")").last?.split(separator: " "), fields.count > 19,
            let parent = pid_t(fields[1]), let started = UInt64(fields[19])
        else { return nil }
        return (parent, started)
    }
}
