import Foundation
import ScandCore
import ScandProtocol
import NIOConcurrencyHelpers

/// Where events and log lines go. Events are whole lines, flushed as they are written, so a reader on a
/// pipe sees each one at once; logs go to stderr, never to stdout. Events and logs are serialized apart,
/// so a stdout that blocks never holds up a log line. The daemon's events go to its `EventStage`, which
/// keeps their order itself: no lock is taken for them there; its logs go to a `QueuedWriter`, whose one
/// writer thread is the only one to take the log lock, never an event loop.
public final class OutputSink: Sendable {
    private let eventLock = NIOLockedValueBox(())
    private let logLock = NIOLockedValueBox(())
    private let serializingEvents: Bool
    private let writeEvent: @Sendable (Event) -> Void
    private let writeLog: @Sendable (String, LogLevel) -> Void
    private let writeLine: @Sendable (String) -> Void
    private let waitForRoom: @Sendable () async -> Void

    /// - Parameter line: where lines already encoded go (the daemon's stdout, which numbers its events).
    /// - Parameter room: returns once events may be given without piling up (the daemon's `EventStage`).
    public init(
        event: @escaping @Sendable (Event) -> Void, log: @escaping @Sendable (String, LogLevel) -> Void,
        line: @escaping @Sendable (String) -> Void = { _ in }, serializingEvents: Bool = true,
        room: @escaping @Sendable () async -> Void = {}
    ) {
        self.serializingEvents = serializingEvents
        self.writeEvent = event
        self.writeLog = log
        self.writeLine = line
        self.waitForRoom = room
    }

    public convenience init(event: @escaping @Sendable (Event) -> Void, log: @escaping @Sendable (String) -> Void) {
        self.init(event: event, log: { line, _ in log(line) })
    }

    /// stdout for events, stderr for logs: one write(2) a line, so lines never interleave.
    public static func standard() -> OutputSink {
        OutputSink(event: { writeAll(1, $0.line + "\n") }, log: { writeAll(2, LogLevel.format($0, $1)) }, line: { writeAll(1, $0 + "\n") })
    }

    public static func writeAll(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }  // a closed stdout is the reader's choice; nothing to do about it here
            offset += n
        }
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

    public func log(_ line: String, _ level: LogLevel = .notice) {
        logLock.withLockedValue { _ in writeLog(line, level) }
    }
}

/// syslog priorities. Under systemd (stderr connected to the journal, JOURNAL_STREAM set) a line starts
/// with "<N>", which journald turns into its priority; on a terminal it starts with "scand: ".
public enum LogLevel: Int, Sendable {
    case error = 3, warning = 4, notice = 5, info = 6

    static let toJournal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil

    /// One line: control characters (from a file name, say) are escaped, never written raw.
    public static func format(_ line: String, _ level: LogLevel) -> String {
        (toJournal ? "<\(level.rawValue)>" : "scand: ") + line.escapingControlCharacters() + "\n"
    }
}

/// A log line on stderr for commands that have no sink of their own.
public enum OutputSinkLog {
    public static func write(_ line: String, _ level: LogLevel = .error) { OutputSink.writeAll(2, LogLevel.format(line, level)) }
}
