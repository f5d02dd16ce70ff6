import ArgumentParser
import Foundation
import Glibc
import NIOPosix
import ScandCore
import ScandProtocol
import ScandRuntime

/// `scand watch --exec`: runs a command for one scan, with the scan in its environment (`SCAND_TEXT`,
/// `SCAND_FORMAT`, `SCAND_ID`, `SCAND_DEVICE`, `SCAND_BOOT`, `SCAND_SEQ`, `SCAND_JSON`), never with the
/// payload on a command line: the command is its words (no shell), or `/bin/sh -c` it when asked. The child
/// gets /dev/null for stdin, the watcher's stdout and stderr and no other descriptor, default signal
/// handling, and a process group of its own, so a timeout ends the command and whatever it started (what
/// left the group with setsid too, found by parent: `HookProcessTree`).
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

    /// Whether `outcome` says the command never ran: not found or not executable; under `--shell`, the
    /// shell's 127 and 126 say the same of the command it was given.
    func neverRan(_ outcome: Outcome) -> Bool {
        switch outcome {
        case .notStarted: true
        case .exited(let status): arguments.first == "/bin/sh" && (status == 126 || status == 127)
        default: false
        }
    }

    /// `--exec`'s command checked before the watch starts: a program that is not there, and what only a
    /// shell would understand without `--shell` (`$SCAND_TEXT` reached the command as those characters).
    static func check(command: String, shell: Bool) throws(ValidationError) {
        guard !shell else { return }
        let words = command.split(whereSeparator: \.isWhitespace)
        if let word = words.first(where: { $0.contains { "$`'\"|;&<>".contains($0) } }) {
            throw ValidationError(
                "--exec runs its command without a shell, so \(word) would reach it as it is: add --shell (the scan stays in the environment), or put the command in a script"
            )
        }
        guard let program = words.first.map(String.init) else { return }
        if let problem = Self.problem(withProgram: program, path: ProcessInfo.processInfo.environment["PATH"]) {
            throw ValidationError("--exec: \(problem)")
        }
    }

    /// Why `program` cannot be run, as posix_spawnp would find it (a name without a slash is looked up in PATH).
    static func problem(withProgram program: String, path: String?) -> String? {
        let fm = FileManager.default
        func runnable(_ file: String) -> Bool {
            var isDirectory: ObjCBool = false
            return fm.fileExists(atPath: file, isDirectory: &isDirectory) && !isDirectory.boolValue && fm.isExecutableFile(atPath: file)
        }
        if program.contains("/") {
            guard fm.fileExists(atPath: program) else { return "no such file: \(program)" }
            return runnable(program) ? nil : "\(program) is not an executable file (chmod +x it)"
        }
        let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map { $0.isEmpty ? "." : String($0) }
        return directories.contains { runnable($0 + "/" + program) } ? nil : "no such command in PATH: \(program)"
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

    /// Runs the command to its end (or its timeout). At the timeout, or when the task is cancelled (the watch
    /// ends), its process group gets SIGTERM, and SIGKILL once the command itself has ended or after `grace`,
    /// whichever comes first: a child that ignores SIGTERM, or one left in the background, is ended with it.
    /// The command is reaped only after that, so its group's id cannot be another's when it is signalled.
    /// What a command that ends by itself leaves running in the background (a sound played with `&`) is left
    /// alone. The wait for the command's end is NIO's shared blocking pool's, never the cooperative pool's.
    func run(for code: ReceivedCode, line: ReceivedEvent) async -> Outcome {
        let child: pid_t
        do { child = try spawn(environment: Self.environment(for: code, line: line)) } catch { return .notStarted("\(error)") }
        let (news, post) = AsyncStream.makeStream(of: Happening.self)
        Task {
            // The singleton pool is never shut down: the wait always runs.
            try? await NIOThreadPool.singleton.runIfActive { Self.waitUntilEnded(child) }
            post.yield(.ended)
        }
        let timer = Task { [timeout] in
            try await Task.sleep(for: timeout)
            post.yield(.timedOut)
        }
        // The run's own task, which the watch's cancellation does not reach (an `AsyncStream`'s iterator ends
        // when its task is cancelled): it is told `.cancelled` instead, and still ends and reaps its command.
        let run = Task { [timeout, grace] () -> Outcome in
            var ending: Happening?
            var graceTimer: Task<Void, any Error>?
            var tree = HookProcessTree()
            for await happening in news {
                switch happening {
                case .ended:
                    timer.cancel()
                    graceTimer?.cancel()
                    if ending != nil {
                        _ = kill(-child, SIGKILL)
                        tree.signal(SIGKILL)
                    }
                    let status = Self.reap(child)
                    if ending == .timedOut { return .timedOut(timeout) }
                    return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
                case .timedOut, .cancelled:
                    guard ending == nil else { continue }
                    ending = happening
                    // Found before the command ends: its children are then no longer below it.
                    tree = HookProcessTree.below(child)
                    _ = kill(-child, SIGTERM)
                    tree.signal(SIGTERM)
                    graceTimer = Task { [grace] in
                        try await Task.sleep(for: grace)
                        post.yield(.graceOver)
                    }
                case .graceOver:
                    tree = tree.adding(below: child)
                    _ = kill(-child, SIGKILL)
                    tree.signal(SIGKILL)
                }
            }
            // Not reached: `post` lives as long as this run, so the stream does not end before the command.
            _ = kill(-child, SIGKILL)
            try? await NIOThreadPool.singleton.runIfActive { Self.waitUntilEnded(child) }
            _ = Self.reap(child)
            return .signalled(SIGKILL)
        }
        return await withTaskCancellationHandler {
            await run.value
        } onCancel: {
            post.yield(.cancelled)
        }
    }

    enum Happening: Sendable, Equatable {
        /// The command's process has ended (not reaped yet).
        case ended
        case timedOut
        /// The watch is ending.
        case cancelled
        case graceOver
    }

    /// Blocks until the child has ended, leaving it unreaped (its pid, and its group's id, stay its own).
    static func waitUntilEnded(_ child: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }

    /// Reaps the ended child; returns its wait status.
    static func reap(_ child: pid_t) -> Int32 {
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
        // Nothing but stdin, stdout and stderr: the watcher's connection to the daemon and its event loop's
        // descriptors are not all close-on-exec, and a command's background child would keep them open.
        guard SpawnActions.closeFrom(3, in: &actions) == 0 else { throw SpawnError(description: "posix_spawn_file_actions_addclosefrom_np failed") }
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
