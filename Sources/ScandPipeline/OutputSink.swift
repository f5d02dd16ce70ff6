import Foundation
import Logging
import ScandCore
import ScandLogging
import ScandProtocol

/// Where events and log lines go. Events are whole lines, flushed as they are written, so a reader on a
/// pipe sees each one at once; logs go to stderr through `logger` (scand's `ScandLogHandler`), never to
/// stdout. It takes no lock: its closures are called from any thread, and each is made safe so (the
/// daemon's events go to its `EventRuntime`, its logs to a `LineWriter`, stdout's lines from the one loop of
/// its writer; a test's into a locked box), so no lock is ever held across a write(2).
public final class OutputSink: Sendable {
    private let writeEvent: @Sendable (Event) -> Void
    private let writeLine: @Sendable (String) -> Void
    private let waitForRoom: nonisolated(nonsending) @Sendable () async -> Void
    /// Where a finished log line goes with its level (stderr, a queue of log lines): `logger`'s end.
    public let writeLog: @Sendable (String, Logger.Level) -> Void
    /// The log.
    public let logger: Logger

    /// - Parameter log: where each finished log line goes, with its level.
    /// - Parameter logger: the log, when it is not `log` itself (the daemon's: one handler, into its queue).
    /// - Parameter line: where lines already encoded go (the daemon's stdout, which numbers its events).
    /// - Parameter room: returns once events may be given without piling up (the daemon's `EventRuntime`).
    public init(
        event: @escaping @Sendable (Event) -> Void, log: @escaping @Sendable (String, Logger.Level) -> Void, logger: Logger? = nil,
        line: @escaping @Sendable (String) -> Void = { _ in }, room: nonisolated(nonsending) @escaping @Sendable () async -> Void = {}
    ) {
        self.writeEvent = event
        self.writeLine = line
        self.waitForRoom = room
        self.writeLog = log
        self.logger = logger ?? .scand(write: log)
    }

    public convenience init(event: @escaping @Sendable (Event) -> Void, log: @escaping @Sendable (String) -> Void) {
        self.init(event: event, log: { line, _ in log(line) })
    }

    /// stdout for events, stderr for logs: one write(2) a line (past a short write, the rest), from one
    /// thread at a time (`scand scan`'s loop; the daemon's stdout and stderr queues).
    public static func standard() -> OutputSink {
        OutputSink(
            event: { StandardStream.writeAll(1, $0.line + "\n") }, log: ScandLogHandler.standardError,
            line: { StandardStream.writeAll(1, $0 + "\n") })
    }

    public func event(_ event: Event) { writeEvent(event) }

    /// Returns once an event given now would not pile up behind a stalled journal: a producer in a task
    /// waits here first, suspended rather than blocking a thread. It runs on the caller's executor: the decode
    /// loop asks once a frame, and a look at a counter must not cost it a hop to the cooperative pool and back.
    nonisolated(nonsending) public func room() async { await waitForRoom() }

    /// One encoded line (without its newline).
    public func line(_ text: String) { writeLine(text) }
}
