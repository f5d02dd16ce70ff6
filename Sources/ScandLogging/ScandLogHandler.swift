import Foundation
import Logging
import ScandCore

/// scand's one log handler, behind every `Logger` of the daemon and its commands: a line on stderr, `scand: …`
/// on a terminal or with its syslog priority (`<4>…`) under systemd, where journald reads stderr
/// (JOURNAL_STREAM set). Control characters are escaped: a file name or a client's bytes may be quoted.
public struct ScandLogHandler: LogHandler {
    /// The command's name before each line (`web: …`), or nothing (the daemon's own lines).
    public var prefix: String?
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    /// Where a finished line goes (without its newline) with its level: stderr, or the daemon's log queue.
    private let write: @Sendable (String, Logger.Level) -> Void

    public init(prefix: String? = nil, write: @escaping @Sendable (String, Logger.Level) -> Void = ScandLogHandler.standardError) {
        self.prefix = prefix
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        write(prefix.map { "\($0): \(event.message)" } ?? "\(event.message)", event.level)
    }

    static let toJournal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil

    /// The syslog priority journald gives a line of `level`.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// One line as stderr shows it, with its newline.
    public static func format(_ line: String, _ level: Logger.Level) -> String {
        (toJournal ? "<\(priority(level))>" : "scand: ") + line.escapingControlCharacters() + "\n"
    }

    @Sendable public static func standardError(_ line: String, _ level: Logger.Level) {
        StandardStream.writeAll(2, format(line, level))
    }
}

extension Logger {
    /// A logger whose lines are scand's (`ScandLogHandler`): on stderr unless `write` takes them.
    public static func scand(
        _ prefix: String? = nil, level: Logger.Level = .info,
        write: @escaping @Sendable (String, Logger.Level) -> Void = ScandLogHandler.standardError
    ) -> Logger {
        var logger = Logger(label: prefix.map { "scand-\($0)" } ?? "scand") { _ in ScandLogHandler(prefix: prefix, write: write) }
        logger.logLevel = level
        return logger
    }

    /// The commands' lines on stderr, outside the daemon (a usage error, a client's warnings).
    public static let standardError = Logger.scand()

    /// A line already composed elsewhere (an error's description, a state machine's message) at `level`.
    public func callAsFunction(_ line: String, _ level: Logger.Level) {
        log(level: level, "\(line)")
    }
}
