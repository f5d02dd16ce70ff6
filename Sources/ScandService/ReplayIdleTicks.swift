import ScandCore

/// A replay on recorded stamps has no clock to tick by while no frame comes: the tracker hears of an idle
/// stretch just before the frame that ends it, as a tick would have told it live (a code unseen meanwhile is
/// lost, and forgotten, before that frame's reads are matched). Idle means the decoder's: live, a decoder busy
/// on a frame hears no tick, and the newest frame's reads are matched before anything expires. In a fast
/// replay the decoder's time passes on the recorded clock (it is why frames were dropped), so a stretch
/// between two decoded frames is idle only from when it was done; in lockstep it takes no time.
struct ReplayIdleTicks {
    let decoderTakesRecordedTime: Bool
    /// The last frame's stamp (µs).
    private(set) var lastStamp: UInt64?
    /// When the decoder was done with the last frame, on the recorded clock (µs; fast replays).
    private var doneAt: UInt64?
    /// When the decoder began the frame it is on, on the recorded clock (µs).
    private var began: UInt64 = 0

    init(decoderTakesRecordedTime: Bool) {
        self.decoderTakesRecordedTime = decoderTakesRecordedTime
    }

    /// The decoder takes a frame stamped `stamp`: when to tick before its reads are matched, if the decoder
    /// was idle for longer than `idleTick` before it.
    mutating func take(stamp: UInt64, idleTick: Duration) -> UInt64? {
        defer { lastStamp = max(stamp, lastStamp ?? 0) }
        let idleSince = max(lastStamp ?? stamp, doneAt ?? 0)
        began = max(stamp, doneAt ?? 0)
        guard stamp > idleSince, Duration.microseconds(stamp - idleSince) > idleTick else { return nil }
        return stamp - 1
    }

    /// The decoder was done with the frame it took, after `busyMicroseconds` by the wall clock.
    mutating func done(busyMicroseconds: UInt64) {
        guard decoderTakesRecordedTime else { return }
        // Stamps are at most 2^53 µs; a wall time beyond that is not a decode's.
        doneAt = began + min(busyMicroseconds, Frame.maxTimestampMicroseconds)
    }
}
