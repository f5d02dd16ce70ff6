import ScandProtocol

/// A stretch of time the journal is off: why, which events it missed, and when to try again. Attempts back
/// off from 1 s to a minute, so a disk that stays full costs one try a minute; time is what the caller says
/// it is (seconds), so tests step through it.
struct JournalOutage: Sendable, Equatable {
    static let firstDelay = 1.0
    static let maxDelay = 60.0

    var reason: String
    /// The events numbered meanwhile, none journaled.
    private(set) var missed: JournalGap?
    private(set) var retryAt: Double
    private var delay: Double
    /// False when there is nothing to retry (no state directory).
    let retries: Bool

    /// - Parameter retryNow: the first attempt is due at once (a journal to replace, not a full disk).
    init(reason: String, now: Double, retryNow: Bool = false, retries: Bool = true) {
        self.reason = reason
        self.retries = retries
        delay = Self.firstDelay
        retryAt = retryNow ? now : now + delay
    }

    mutating func missed(_ seq: Int) {
        missed = missed.map { JournalGap(first: $0.first, last: seq) } ?? JournalGap(first: seq, last: seq)
    }

    func isDue(_ now: Double) -> Bool { retries && now >= retryAt }

    /// Seconds to the next attempt; nil when there will be none.
    func retryIn(_ now: Double) -> Double? { retries ? max(0, retryAt - now) : nil }

    /// An attempt failed: the next one waits twice as long, up to `maxDelay`.
    mutating func failed(_ reason: String, now: Double) {
        self.reason = reason
        delay = min(delay * 2, Self.maxDelay)
        retryAt = now + delay
    }
}
