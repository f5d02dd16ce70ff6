import ScandCore

/// A recording offered to the decoder as a camera streaming at its recorded stamps would offer it, without
/// the waiting (`CaptureSession.Delivery.onRecordedClock`, the fast replays): a frame that arrives (by its
/// stamp) while the decoder is busy (for as long as it really took) waits for it, replaced by one that
/// arrives after it, and is dropped; so the frames dropped are those the live pipeline would drop on this
/// machine, and a replay takes only the time its decoding does. Pure: the capture session hands over what it
/// says and tells it how long the decoder took (`FrameHandOff.consumerDone`).
struct RecordedClockPacer {
    enum Step {
        /// Offer `frame` now: the decoder begins it at `startsAt` on the recorded clock. `again`: the frame
        /// that arrived is not this one (this one was left waiting) and is to be given to `arrive` again once
        /// the decoder is done.
        case handOver(Frame, startsAt: UInt64, again: Bool)
        /// The frame that arrived waits for the decoder, in place of `dropped`.
        case wait(dropped: Frame?)
    }

    /// When the decoder was done with its last frame, on the recorded clock (nil before its first).
    private(set) var doneAt: UInt64?
    /// The frame a camera would have left waiting for the busy decoder.
    private var waiting: Frame?

    mutating func arrive(_ frame: Frame) -> Step {
        if let doneAt, frame.timestampMicroseconds <= doneAt {
            let earlier = waiting
            waiting = frame
            return .wait(dropped: earlier)
        }
        // The frame left waiting was taken when the decoder was done, before this one arrived.
        if let earlier = waiting, let doneAt {
            waiting = nil
            return .handOver(earlier, startsAt: doneAt, again: true)
        }
        return .handOver(frame, startsAt: frame.timestampMicroseconds, again: false)
    }

    /// The decoder spent `busyMicroseconds` (by the wall clock) on the frame it began at `startedAt`.
    mutating func done(startedAt: UInt64, busyMicroseconds: UInt64) {
        doneAt = startedAt &+ busyMicroseconds
    }

    /// No more frames: the one left waiting, taken when the decoder is done.
    mutating func finish() -> Frame? {
        defer { waiting = nil }
        return waiting
    }
}
