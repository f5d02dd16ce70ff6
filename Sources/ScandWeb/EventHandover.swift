import ScandCore
import ScandProtocol

/// One /events client's way from where it stopped to live events, exactly once and in order (docs/web.md,
/// "How it is served"): a client behind the shared relay reads the journal through a `?WATCH` with `since`
/// of its own until that reaches the relay's newest event or goes live, then takes the relay's events
/// (subscribed to before the catch-up started), skipping those the catch-up sent. A `since` ahead of the
/// relay goes to the daemon too: ahead of its journal it answers an ERROR and a replay of what it holds,
/// where the relay would have left the client silent. Pure: the route feeds it lines.
struct EventHandover {
    enum Phase: Equatable {
        /// Reading the journal; done at `until` (the relay's newest event then) or at the first live event.
        case catchingUp(until: EventPosition?)
        case live
    }

    let watch: ClientRequest.Watch
    private(set) var phase: Phase
    /// The newest event sent or filtered out: the relay's events up to it are not sent again.
    private(set) var last: EventPosition?

    /// - Parameters:
    ///   - since: where the client stopped (its Last-Event-ID), if it resumes.
    ///   - relayed: the newest event the relay had passed on when the client subscribed to it.
    init(watch: ClientRequest.Watch, since: EventPosition?, relayed: EventPosition?) {
        self.watch = watch
        last = since
        if let since, since != relayed {
            phase = .catchingUp(until: relayed)
        } else {
            phase = .live
        }
    }

    /// A line of the catch-up subscription: what to send (nil: nothing). `phase` is `.live` after the line
    /// that completes the catch-up; its subscription is then closed.
    mutating func caughtUp(_ line: ReceivedEvent) -> ReceivedEvent? {
        guard case .catchingUp(let until) = phase else { return nil }
        // The daemon's word on `since` (not in the journal any more, the journal off): the page should know.
        if line.eventClass == .error { return line }
        guard let position = line.position else { return nil }  // VERSION, WATCH
        let reached = until.map { $0.boot == position.boot && position.seq >= $0.seq } ?? false
        if reached || line.stamp?.replayed != true { phase = .live }
        return pass(line, at: position)
    }

    /// A line of the shared relay, once live: what to send (nil: nothing, or already sent by the catch-up).
    mutating func relayed(_ line: ReceivedEvent) -> ReceivedEvent? {
        guard phase == .live else { return nil }
        guard let position = line.position else { return watch.accepts(line) ? line : nil }  // an unnumbered daemon
        if let last, last.boot == position.boot, position.seq <= last.seq { return nil }
        return pass(line, at: position)
    }

    private mutating func pass(_ line: ReceivedEvent, at position: EventPosition) -> ReceivedEvent? {
        last = position
        return watch.accepts(line) ? line : nil
    }
}
