import ScandEventLog
import ScandJournal
import ScandProtocol

/// What one client's writer takes from its outbox, in order: lines, the places and answers of its requests,
/// and the steps of a `since` replay. Only the writer writes to the connection while any of these wait (the
/// hub's live lines skip an empty outbox): replies and events go out in one order.
enum Outgoing: Sendable {
    /// A line as it is: the banner, an event the client's WATCH takes, a notice.
    case line(String)
    /// A request started: its answer's place among the answers (`ReplyOrder`).
    case reserve
    /// The answer of the request that reserved `ticket`.
    case answer(ticket: Int, line: String)
    /// A numbered event published while the client replays: the replay puts it in its place.
    case live(PublishedEvent)
    /// A WATCH: a replay from its `since` takes the live events from now on (nil: no replay), ending any
    /// before it.
    case replay(ReplayRequest?)
    /// The WATCH answered: the replay reads the journal.
    case beginReplay(id: Int)
    /// A replay's handover, made on the thread pool, with its first actions.
    case replayBegun(id: Int, Result<(ReplayHandover, [ReplayHandover.Action]), ReplayFailure>)
    /// A replay's batch of journaled events, read on the thread pool.
    case batch(id: Int, Result<[JournaledEvent], ReplayFailure>)
    /// The last line before the connection is closed (the request timeout).
    case closing(String)
}

/// A WATCH with a `since`, as the writer replays it.
struct ReplayRequest: Sendable {
    var id: Int
    var since: EventPosition
    var watch: ClientRequest.Watch
    var journal: EventJournal
}

/// Why a replay could not go on: the journal's error.
struct ReplayFailure: Error {
    var reason: String
}
