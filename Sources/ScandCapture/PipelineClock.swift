import ScandCore

/// The time a pipeline's tracker goes by: a camera's (its frames' stamps and the monotonic clock, which
/// ticks on while no frame comes), or a replay's recorded stamps alone.
public struct PipelineClock: Sendable {
    /// Now, on the clock of frame stamps (CLOCK_MONOTONIC), for LOST events while no frame arrives; nil: no
    /// time passes but with frames (replays that keep the recorded stamps: lockstep, fast).
    public var now: @Sendable () -> Duration?
    /// On recorded stamps, the decoder's own time passes on the recorded clock too (fast replays: it was busy
    /// while the frames it dropped arrived); in lockstep it takes none.
    public var decoderTakesRecordedTime: Bool

    public init(now: @escaping @Sendable () -> Duration?, decoderTakesRecordedTime: Bool = false) {
        self.now = now
        self.decoderTakesRecordedTime = decoderTakesRecordedTime
    }

    /// A camera's.
    public static let monotonic = PipelineClock(now: { .microseconds(Monotonic.microseconds()) })
}
