import ScandRuntime

/// The time a pipeline's tracker goes by: a camera's (its frames' stamps and the monotonic clock, which
/// ticks on while no frame comes), or a replay's recorded stamps alone.
public struct PipelineClock: Sendable {
    /// Now, on the clock of frame stamps (CLOCK_MONOTONIC), for LOST events while no frame arrives; nil: no
    /// time passes but with frames (a lockstep replay, which keeps the recorded stamps).
    public var now: @Sendable () -> Duration?

    public init(now: @escaping @Sendable () -> Duration?) {
        self.now = now
    }

    /// A camera's.
    public static let monotonic = PipelineClock(now: { .microseconds(Monotonic.microseconds()) })
}
