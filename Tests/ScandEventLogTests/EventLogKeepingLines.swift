import NIOConcurrencyHelpers
import ScandLogging

@testable import ScandEventLog

/// A journal suite that opens event logs (`EventLogTests.limits`, the clock at 1000) and keeps what they log in
/// `logged`, to check the lines said about a loss.
protocol EventLogKeepingLines {
    var logged: NIOLockedValueBox<[String]> { get }
}

extension EventLogKeepingLines {
    func eventLog(_ directory: String) -> EventLog {
        let logged = self.logged
        return EventLog(
            directory: directory, limits: EventLogTests.limits, log: .scand(write: { line, _ in logged.withLockedValue { $0.append(line) } }),
            now: 1000)
    }
}
