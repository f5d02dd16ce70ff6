import NIOConcurrencyHelpers

/// The bounds of /events: streams open at once, and of those, streams catching up from the journal (each
/// holds a connection to the daemon, which admits 32 per user by default, until it reaches live events).
public final class EventStreamLimits: Sendable {
    let maxStreams: Int
    let maxCatchingUp: Int
    private let counts = NIOLockedValueBox((streams: 0, catchingUp: 0))

    public init(maxStreams: Int = 64, maxCatchingUp: Int = 8) {
        self.maxStreams = maxStreams
        self.maxCatchingUp = maxCatchingUp
    }

    /// Takes a place for a stream (and a catch-up), or says why there is none.
    func admit(catchingUp: Bool) -> String? {
        counts.withLockedValue { c in
            if c.streams >= maxStreams { return "\(maxStreams) event streams are open already, the most scand web serves" }
            if catchingUp && c.catchingUp >= maxCatchingUp {
                return "\(maxCatchingUp) event streams are catching up from the journal already; try again in a moment"
            }
            c.streams += 1
            if catchingUp { c.catchingUp += 1 }
            return nil
        }
    }

    func endCatchUp() { counts.withLockedValue { $0.catchingUp -= 1 } }
    func endStream() { counts.withLockedValue { $0.streams -= 1 } }

    var open: (streams: Int, catchingUp: Int) { counts.withLockedValue { $0 } }
}
