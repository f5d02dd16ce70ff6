import Logging
import ScandService

/// swift-log's lines in scand's own form on stderr: `scand: web: …`, or with a syslog priority under journald,
/// escaped as every log line of scand (a library's message may quote a client's bytes).
struct LineLogHandler: LogHandler {
    /// The command's name before each line (`web: …`).
    var prefix: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
        let priority: LogLevel =
            switch level {
            case .trace, .debug, .info: .info
            case .notice: .notice
            case .warning: .warning
            case .error, .critical: .error
            }
        OutputSinkLog.write("\(prefix): \(message)", priority)
    }
}
