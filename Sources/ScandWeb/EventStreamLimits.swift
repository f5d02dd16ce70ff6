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

    /// Why a stream was refused, for its 503.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Takes a place for a stream (and a catch-up), or says why there is none.
    func admit(catchingUp: Bool) throws(Refusal) -> Place {
        let refusal: String? = counts.withLockedValue { c in
            if c.streams >= maxStreams { return "\(maxStreams) event streams are open already, the most scand web serves" }
            if catchingUp && c.catchingUp >= maxCatchingUp {
                return "\(maxCatchingUp) event streams are catching up from the journal already; try again in a moment"
            }
            c.streams += 1
            if catchingUp { c.catchingUp += 1 }
            return nil
        }
        if let refusal { throw Refusal(description: refusal) }
        return Place(limits: self, catchingUp: catchingUp)
    }

    /// A stream's place and its catch-up's, each given back once, whichever of its ends comes first: the
    /// response's end, or its connection's close (which may come before the response body ever runs).
    final class Place: Sendable {
        private let limits: EventStreamLimits
        private let held: NIOLockedValueBox<(stream: Bool, catchUp: Bool)>

        fileprivate init(limits: EventStreamLimits, catchingUp: Bool) {
            self.limits = limits
            held = NIOLockedValueBox((stream: true, catchUp: catchingUp))
        }

        func endCatchUp() {
            if release(\.catchUp) { limits.counts.withLockedValue { $0.catchingUp -= 1 } }
        }

        func end() {
            endCatchUp()
            if release(\.stream) { limits.counts.withLockedValue { $0.streams -= 1 } }
        }

        /// Whether `part` was still held (and now is not).
        private func release(_ part: WritableKeyPath<(stream: Bool, catchUp: Bool), Bool>) -> Bool {
            held.withLockedValue { held in
                let was = held[keyPath: part]
                held[keyPath: part] = false
                return was
            }
        }
    }

    var open: (streams: Int, catchingUp: Int) { counts.withLockedValue { $0 } }
}
