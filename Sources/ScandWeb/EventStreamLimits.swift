import Synchronization

/// The bounds of /events: streams open at once, and of those, streams catching up from the journal (each
/// holds a connection to the daemon, which admits 32 per user by default, until it reaches live events).
/// Counted in a request's handler and given back from a channel's close (on its event loop): atomic counters.
public final class EventStreamLimits: Sendable {
    let maxStreams: Int
    let maxCatchingUp: Int
    private let streams = Atomic(0)
    private let catchingUp = Atomic(0)

    public init(maxStreams: Int = 64, maxCatchingUp: Int = 8) {
        self.maxStreams = maxStreams
        self.maxCatchingUp = maxCatchingUp
    }

    /// Why a stream was refused, for its 503.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Takes a place for a stream (and a catch-up), or says why there is none.
    func admit(catchingUp: Bool) throws(Refusal) -> Place {
        guard streams.increment(below: maxStreams) else {
            throw Refusal(description: "\(maxStreams) event streams are open already, the most scand web serves")
        }
        if catchingUp && !self.catchingUp.increment(below: maxCatchingUp) {
            streams.subtract(1, ordering: .relaxed)
            throw Refusal(description: "\(maxCatchingUp) event streams are catching up from the journal already; try again in a moment")
        }
        return Place(limits: self, catchingUp: catchingUp)
    }

    /// A stream's place and its catch-up's, each given back once, whichever of its ends comes first: the
    /// response's end, or its connection's close (which may come before the response body ever runs).
    final class Place: Sendable {
        private let limits: EventStreamLimits
        /// Whether the stream and its catch-up are still held: each exchanged for false once.
        private let stream = Atomic(true)
        private let catchUp: Atomic<Bool>

        fileprivate init(limits: EventStreamLimits, catchingUp: Bool) {
            self.limits = limits
            catchUp = Atomic(catchingUp)
        }

        func endCatchUp() {
            if catchUp.exchange(false, ordering: .relaxed) { limits.catchingUp.subtract(1, ordering: .relaxed) }
        }

        func end() {
            endCatchUp()
            if stream.exchange(false, ordering: .relaxed) { limits.streams.subtract(1, ordering: .relaxed) }
        }
    }

    var open: (streams: Int, catchingUp: Int) { (streams.load(ordering: .relaxed), catchingUp.load(ordering: .relaxed)) }
}
