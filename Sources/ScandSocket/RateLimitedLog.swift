import Logging
import ScandRuntime
import ScandCore
import ScandLogging
import Synchronization

/// A log line that may come in floods (660,000 refused connections): at most one line per `interval`; the
/// next line that passes says how many were held back in between. Called from any connection's task or NIO
/// callback at once: two atomics, not a lock (a line held back is one increment).
final class RateLimitedLog: Sendable {
    private let intervalMicroseconds: UInt64
    private let level: Logger.Level
    private let log: Logger
    private let now: @Sendable () -> UInt64
    /// When the last line was logged, in monotonic microseconds; `never` before the first.
    private let lastLogged = Atomic<UInt64>(RateLimitedLog.never)
    private let heldBack = Atomic<Int>(0)
    private static let never = UInt64.max

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
        let last = lastLogged.load(ordering: .acquiring)
        // Of two callers that both find the interval over, one wins the exchange and logs; the other is held back.
        // A time read before the last line's (by a caller that lost the race to it) is within the interval.
        guard last == Self.never || (t >= last && t - last >= intervalMicroseconds),
            lastLogged.compareExchange(expected: last, desired: t, ordering: .acquiringAndReleasing).exchanged
        else {
            heldBack.wrappingAdd(1, ordering: .relaxed)
            return
        }
        let more = heldBack.exchange(0, ordering: .relaxed)
        log(more == 0 ? message : message + " (and \(more) more like it not logged since the last)", level)
    }
}
