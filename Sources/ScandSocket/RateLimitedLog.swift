import Logging
import NIOConcurrencyHelpers
import ScandRuntime
import ScandCore
import ScandLogging

/// A log line that may come in floods (660,000 refused connections): at most one line per `interval`; the
/// next line that passes says how many were held back in between.
final class RateLimitedLog: Sendable {
    private let intervalMicroseconds: UInt64
    private let level: Logger.Level
    private let log: Logger
    private let now: @Sendable () -> UInt64
    private struct State {
        var lastLogged: UInt64?
        var heldBack = 0
    }
    private let state = NIOLockedValueBox(State())

    init(
        interval: Duration = .seconds(10), level: Logger.Level = .warning, log: Logger,
        now: @escaping @Sendable () -> UInt64 = { Monotonic.microseconds() }
    ) {
        let c = interval.components
        self.intervalMicroseconds = UInt64(c.seconds) * 1_000_000 + UInt64(c.attoseconds / 1_000_000_000_000)
        self.level = level
        self.log = log
        self.now = now
    }

    func callAsFunction(_ message: String) {
        let t = now()
        let line: String? = state.withLockedValue { s in
            if let last = s.lastLogged, t &- last < intervalMicroseconds {
                s.heldBack += 1
                return nil
            }
            let more = s.heldBack
            s.lastLogged = t
            s.heldBack = 0
            return more == 0 ? message : message + " (and \(more) more like it not logged since the last)"
        }
        if let line { log(line, level) }
    }
}
