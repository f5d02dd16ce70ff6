/// A lockstep replay has no clock to tick by while no frame comes: the tracker hears of an idle stretch just
/// before the frame that ends it, as a tick would have told it live (a code unseen meanwhile is lost, and
/// forgotten, before that frame's reads are matched). The decoder's own time is not the recording's: in
/// lockstep a decode takes no recorded time.
struct ReplayIdleTicks {
    /// The last frame's stamp (µs).
    private(set) var lastStamp: UInt64?

    /// The decoder takes a frame stamped `stamp`: when to tick before its reads are matched, if no frame came
    /// for longer than `idleTick` before it.
    mutating func take(stamp: UInt64, idleTick: Duration) -> UInt64? {
        defer { lastStamp = max(stamp, lastStamp ?? 0) }
        let idleSince = lastStamp ?? stamp
        // Stamps are at most 2^53 µs (`Frame.maxTimestampMicroseconds`): the difference converts exactly.
        guard stamp > idleSince, Duration.microseconds(stamp - idleSince) > idleTick else { return nil }
        return stamp - 1
    }
}
