/// The one wait between attempts to reach the daemon: 0.25 s, doubling up to 5 s, back to the start once a
/// subscription is made again.
public struct Backoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration
    private var current: Duration

    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(5)) {
        self.initial = initial
        self.maximum = maximum
        current = initial
    }

    /// The wait before the next attempt; each one doubles the next, up to `maximum`.
    public mutating func next() -> Duration {
        defer { current = min(current * 2, maximum) }
        return current
    }

    public mutating func reset() { current = initial }
}
