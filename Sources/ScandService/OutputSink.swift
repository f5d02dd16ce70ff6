import Foundation

/// Where events and log lines go. Events are whole lines, flushed as they are written, so a reader on a
/// pipe sees each one at once; logs go to stderr, never to stdout.
public final class OutputSink: @unchecked Sendable {
    private let lock = NSLock()
    private let writeEvent: (String) -> Void
    private let writeLog: (String) -> Void

    public init(event: @escaping (String) -> Void, log: @escaping (String) -> Void) {
        self.writeEvent = event
        self.writeLog = log
    }

    /// stdout for events, stderr for logs: one write(2) a line, so lines never interleave.
    public static func standard() -> OutputSink {
        OutputSink(event: { writeAll(1, $0 + "\n") }, log: { writeAll(2, "scand: " + $0 + "\n") })
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

    public func event(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        writeEvent(line)
    }

    public func log(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        writeLog(line)
    }
}

/// A log line on stderr for commands that have no sink of their own.
public enum OutputSinkLog {
    public static func write(_ line: String) { OutputSink.writeAll(2, "scand: " + line + "\n") }
}
