import Foundation
import Logging
import NIOConcurrencyHelpers
import ScandCore
import ScandLogging
import ScandProtocol

/// Where events and log lines go. Events are whole lines, flushed as they are written, so a reader on a
/// pipe sees each one at once; logs go to stderr through `logger` (scand's `ScandLogHandler`), never to
/// stdout. Events and logs are serialized apart, so a stdout that blocks never holds up a log line. The
/// daemon's events go to its `EventStage`, which keeps their order itself: no lock is taken for them there;
/// its logs go to a `QueuedWriter`, whose one writer is the only one to take the log lock, never an event loop.
public final class OutputSink: Sendable {
    private let eventLock = NIOLockedValueBox(())
    private let serializingEvents: Bool
    private let writeEvent: @Sendable (Event) -> Void
    private let writeLine: @Sendable (String) -> Void
    private let waitForRoom: @Sendable () async -> Void
    /// The log: its lines, one at a time, reach `log` of the initializer.
    public let logger: Logger

    /// - Parameter log: where each finished log line goes, with its level.
    /// - Parameter line: where lines already encoded go (the daemon's stdout, which numbers its events).
    /// - Parameter room: returns once events may be given without piling up (the daemon's `EventStage`).
    public init(
        event: @escaping @Sendable (Event) -> Void, log: @escaping @Sendable (String, Logger.Level) -> Void,
        line: @escaping @Sendable (String) -> Void = { _ in }, serializingEvents: Bool = true,
        room: @escaping @Sendable () async -> Void = {}
    ) {
        self.serializingEvents = serializingEvents
        self.writeEvent = event
        self.writeLine = line
        self.waitForRoom = room
        let logLock = NIOLockedValueBox(())
        logger = .scand(write: { text, level in logLock.withLockedValue { _ in log(text, level) } })
    }

    public convenience init(event: @escaping @Sendable (Event) -> Void, log: @escaping @Sendable (String) -> Void) {
        self.init(event: event, log: { line, _ in log(line) })
    }

    /// stdout for events, stderr for logs: one write(2) a line, so lines never interleave.
    public static func standard() -> OutputSink {
        OutputSink(
            event: { StandardStream.writeAll(1, $0.line + "\n") }, log: ScandLogHandler.standardError,
            line: { StandardStream.writeAll(1, $0 + "\n") })
    }

    public func event(_ event: Event) {
        if serializingEvents { eventLock.withLockedValue { _ in writeEvent(event) } } else { writeEvent(event) }
    }

    /// Returns once an event given now would not pile up behind a stalled journal: a producer in a task
    /// waits here first, suspended rather than blocking a thread.
    public func room() async { await waitForRoom() }

    /// One encoded line (without its newline).
    public func line(_ text: String) {
        eventLock.withLockedValue { _ in writeLine(text) }
    }
}
