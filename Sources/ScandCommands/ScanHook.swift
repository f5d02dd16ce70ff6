import Foundation
import Glibc
import NIOConcurrencyHelpers
import ScandCore
import ScandProtocol

/// `scand watch --exec`: runs a command for one scan, with the scan in its environment (`SCAND_TEXT`,
/// `SCAND_FORMAT`, `SCAND_ID`, `SCAND_DEVICE`, `SCAND_BOOT`, `SCAND_SEQ`, `SCAND_JSON`), never with the
/// payload on a command line: the command is its words (no shell), or `/bin/sh -c` it when asked. The child
/// gets /dev/null for stdin, the watcher's stdout and stderr, default signal handling, and a process group
/// of its own, so a timeout ends the command and whatever it started.
struct ScanHook: Sendable {
    let arguments: [String]
    let timeout: Duration
    /// After a timeout's SIGTERM, the wait for the command to end before SIGKILL.
    let grace: Duration

    enum Outcome: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        /// Killed after `timeout`.
        case timedOut(Duration)
        case notStarted(String)

        var description: String {
            switch self {
            case .exited(let status): "exited \(status)"
            case .signalled(let signal): "was ended by signal \(signal)"
            case .timedOut(let after): "took longer than \(after.inSeconds) s and was ended"
            case .notStarted(let reason): "could not start: \(reason)"
            }
        }
    }

    init(command: String, shell: Bool, timeout: Duration, grace: Duration = .seconds(2)) {
        arguments = shell ? ["/bin/sh", "-c", command] : command.split(whereSeparator: \.isWhitespace).map(String.init)
        self.timeout = timeout
        self.grace = grace
    }

    /// The environment variables of one scan. An environment cannot hold a NUL: a payload's NUL is given as
    /// `\u0000` in SCAND_TEXT (SCAND_JSON has the line, where it is escaped anyway).
    static func environment(for code: ReceivedCode, line: ReceivedEvent) -> [String: String] {
        var vars = [
            "SCAND_TEXT": (code.text ?? "").replacingOccurrences(of: "\u{0}", with: "\\u0000"),
            "SCAND_FORMAT": code.formatName,
            "SCAND_ID": String(code.id),
            "SCAND_JSON": line.line.replacingOccurrences(of: "\u{0}", with: "\\u0000")
        ]
        if let device = code.device { vars["SCAND_DEVICE"] = device }
        if let position = line.position {
            vars["SCAND_BOOT"] = position.boot
            vars["SCAND_SEQ"] = String(position.seq)
        }
        return vars
    }

    /// Runs the command to its end (or its timeout). The wait is a thread's of its own, never the pool's.
    func run(for code: ReceivedCode, line: ReceivedEvent) async -> Outcome {
        let child: pid_t
        do { child = try spawn(environment: Self.environment(for: code, line: line)) } catch { return .notStarted("\(error)") }
        let state = NIOLockedValueBox(ChildState())
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
                let killer = Task {
                    try await Task.sleep(for: timeout)
                    Self.signal(child, SIGTERM, state: state, timedOut: true)
                    try await Task.sleep(for: grace)
                    Self.signal(child, SIGKILL, state: state, timedOut: true)
                }
                Thread.detachNewThread {
                    let status = Self.reap(child, state: state)
                    killer.cancel()
                    let timedOut = state.withLockedValue { $0.timedOut }
                    if timedOut {
                        done.resume(returning: .timedOut(timeout))
                    } else if status & 0x7f == 0 {
                        done.resume(returning: .exited((status >> 8) & 0xff))
                    } else {
                        done.resume(returning: .signalled(status & 0x7f))
                    }
                }
            }
        } onCancel: {
            Self.signal(child, SIGTERM, state: state, timedOut: false)
        }
    }

    struct ChildState {
        /// The child has ended; until it is reaped its pid (and group) cannot be another process's.
        var ended = false
        var timedOut = false
    }

    /// Signals the command's process group unless the command already ended.
    static func signal(_ child: pid_t, _ signal: Int32, state: NIOLockedValueBox<ChildState>, timedOut: Bool) {
        state.withLockedValue {
            guard !$0.ended else { return }
            if timedOut { $0.timedOut = true }
            _ = kill(-child, signal)
        }
    }

    /// Blocks until the child ends: marks it ended (still unreaped), then reaps it. Returns its wait status.
    static func reap(_ child: pid_t, state: NIOLockedValueBox<ChildState>) -> Int32 {
        var info = siginfo_t()
        while waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        state.withLockedValue { $0.ended = true }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        return status
    }

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    private func spawn(environment extra: [String: String]) throws -> pid_t {
        guard let program = arguments.first else { throw SpawnError(description: "the command is empty") }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        // Whatever this process blocks or ignores (the runtime blocks some), the command starts afresh.
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SCAND_") }
        environment.merge(extra) { _, new in new }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError(description: "\(program): \(String(cString: strerror(result)))") }
        return pid
    }
}
