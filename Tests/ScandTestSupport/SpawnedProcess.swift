import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ScandRuntime

/// A child process started with posix_spawn and an empty signal mask. Foundation's Process passes on the
/// mask of the thread that starts it, and the test runner's threads block SIGTERM: a mosquitto or a
/// `scand mqtt` started that way would never see the SIGTERM a test (or systemd) sends.
public final class SpawnedProcess: Sendable {
    public let pid: pid_t
    final class Lines: Sendable {
        let lines = NIOLockedValueBox<[String]>([])
        /// Everything read, as the child wrote it.
        let bytes = NIOLockedValueBox<[UInt8]>([])
    }
    private let out = Lines()
    private let err = Lines()
    private let status = NIOLockedValueBox<Int32?>(nil)
    /// Output readers still reading (each ends when its pipe's last writer is gone).
    final class Readers: Sendable {
        let count = NIOLockedValueBox(0)
    }
    private let reading = Readers()
    /// With `stdoutUnread`: the read end of the stdout pipe nobody reads, open for the child's life.
    private let unreadStdout: Int32?

    /// - Parameter stdoutUnread: stdout is a pipe (of one page) that nobody reads, as a stuck consumer's.
    /// - Parameter withoutStdinAndStdout: the child starts with descriptors 0 and 1 closed (`<&- >&-`).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdoutUnread: Bool = false,
        withoutStdinAndStdout: Bool = false
    ) throws {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw Self.error("pipe") }
        // Not inherited by other children spawned meanwhile (their copy of a write end would hold the pipe open).
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        if stdoutUnread { _ = fcntl(outPipe[1], 1031 /* F_SETPIPE_SZ */, 4096) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if withoutStdinAndStdout {
            posix_spawn_file_actions_addclose(&actions, 0)
            posix_spawn_file_actions_addclose(&actions, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        }
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // Nothing else is inherited: a descriptor another thread has open without close-on-exec (Foundation's
        // copyItem writes an executable copy that way) would stay open for the whole life of a long-running
        // child, and that copy could never be started (ETXTBSY) while the child runs.
        guard SpawnActions.closeFrom(3, in: &actions) == 0 else { throw Self.error("posix_spawn_file_actions_addclosefrom_np") }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnActions.signalsAtDefaults(&attributes)
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        var rc: Int32 = 0
        // ETXTBSY: an executable a test just copied is still open for writing in a process another thread is
        // starting at that moment (until its file actions run); that passes within milliseconds.
        Eventually.wait(seconds: 1) {
            rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
            return rc != ETXTBSY
        }
        close(outPipe[1])
        close(errPipe[1])
        guard rc == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw Self.error("posix_spawn \(executable)", rc)
        }
        pid = child
        unreadStdout = stdoutUnread ? outPipe[0] : nil
        let readers = stdoutUnread ? [(errPipe[0], err)] : [(outPipe[0], out), (errPipe[0], err)]
        reading.count.withLockedValue { $0 = readers.count }
        for (fd, sink) in readers {
            // Read on NIO's shared event loops; the channel owns the descriptor and closes it at the end.
            let reader = NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { [reading] channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(OutputReader(sink) { reading.count.withLockedValue { $0 -= 1 } })
                    }
                }
                .takingOwnershipOfDescriptor(input: fd)
            do { _ = try reader.wait() } catch {
                reading.count.withLockedValue { $0 -= 1 }
                throw MosquittoBroker.BrokerError("reading the output of \(executable): \(error)")
            }
        }
    }

    deinit {
        if isRunning { kill(pid, SIGKILL) }
        _ = wait()
        if let unreadStdout { close(unreadStdout) }
    }

    public var stdout: [String] { out.lines.withLockedValue { $0 } }
    public var stderr: [String] { err.lines.withLockedValue { $0 } }
    /// Everything written so far, byte for byte (a last line without its newline too).
    public var stdoutText: String { String(decoding: out.bytes.withLockedValue { $0 }, as: UTF8.self) }
    public var stderrText: String { String(decoding: err.bytes.withLockedValue { $0 }, as: UTF8.self) }

    public func signal(_ sig: Int32) { kill(pid, sig) }

    public var isRunning: Bool {
        status.withLockedValue { s in
            guard s == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            s = Self.exitStatus(raw)
            return false
        }
    }

    /// Waits for the exit: the exit status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        status.withLockedValue { s in
            if let s { return s }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            s = Self.exitStatus(raw)
            return s!
        }
    }

    /// Waits for the exit, then for its output to be read to the end. A command that has not ended in
    /// `seconds` (far past what any test's command takes) is killed: its test fails on status 137 and its
    /// output, instead of the whole run waiting for ever.
    @discardableResult
    public func run(seconds: Double = 1200) -> Int32 {
        finish(seconds: seconds)
    }

    /// Waits for the exit up to `seconds`, then SIGKILL; then for its output to be read to the end (a
    /// grandchild that holds a pipe open is not waited for past a few seconds more).
    @discardableResult
    public func finish(seconds: Double = 20) -> Int32 {
        if !Eventually.wait(seconds: seconds, until: { !isRunning }) { kill(pid, SIGKILL) }
        let status = wait()
        Eventually.wait(seconds: 5) { reading.count.withLockedValue { $0 == 0 } }
        return status
    }

    /// Waits until `condition` holds, up to `seconds`.
    @discardableResult
    public func wait(seconds: Double = 30, until condition: () -> Bool) -> Bool {
        Eventually.wait(seconds: seconds, until: condition)
    }

    static func exitStatus(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }

    /// One output pipe read to its end: every byte kept, and each line once its newline came.
    final class OutputReader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let sink: Lines
        let ended: @Sendable () -> Void
        var partial: [UInt8] = []

        init(_ sink: Lines, ended: @escaping @Sendable () -> Void) {
            self.sink = sink
            self.ended = ended
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = Array(buffer: unwrapInboundIn(data))
            sink.bytes.withLockedValue { $0 += bytes }
            partial += bytes
            while let nl = partial.firstIndex(of: 10) {
                let line = String(decoding: partial[..<nl], as: UTF8.self)
                sink.lines.withLockedValue { $0.append(line) }
                partial.removeSubrange(...nl)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            ended()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    static func error(_ what: String, _ code: Int32 = errno) -> MosquittoBroker.BrokerError {
        MosquittoBroker.BrokerError("\(what): \(String(cString: strerror(code)))")
    }
}
