import NIOPosix
import ScandEventLog
import ScandJournal
import ScandProtocol

/// One client's `since`, carried out by its connection's writer: its `ReplayHandover`. The client's numbered
/// events go to the replay from its WATCH on (`EventHub.watch`), before the journal is first read (events
/// published meanwhile wait here). Journal reads run on `pool` (NIO's thread pool), never on an event loop
/// or the cooperative pool, one after another: the next batch is read once the connection took the last, so
/// a replay costs a bounded amount of memory per client.
struct SubscriberReplay {
    static let batchLimit = 256

    /// What the writer does for the replay.
    enum Step: Equatable {
        /// A line for the client; `paced`: the replay's, before it went live.
        case send(String, paced: Bool)
        /// Read the batch after this seq (`read(after:)`), once what is before is written.
        case read(after: Int)
    }

    private enum Phase {
        /// The handover is being made on `pool`. Live events published meanwhile, in order.
        case starting([PublishedEvent])
        case running(ReplayHandover)
    }

    let id: Int
    private let request: ReplayRequest
    private let client: Subscriber
    private let pool: NIOThreadPool
    private let queueLimit: Int
    private var phase = Phase.starting([])

    var isLive: Bool { if case .running(let handover) = phase { handover.isLive } else { false } }

    /// A replay that takes the client's live events from now on; `begin` starts it.
    init(_ request: ReplayRequest, client: Subscriber, pool: NIOThreadPool, queueLimit: Int) {
        self.id = request.id
        self.request = request
        self.client = client
        self.pool = pool
        self.queueLimit = queueLimit
    }

    /// Makes the handover on `pool`; it comes back through the client's outbox (`begun`).
    func begin() {
        let request = request, client = client, limit = max(queueLimit, Self.batchLimit)
        pool.submit { _ in
            let journal = request.journal
            let made = Result { () throws(JournalError) in
                let span = try journal.span()
                return ReplayHandover.start(
                    since: request.since, span: span, journalBase: journal.base, batchLimit: Self.batchLimit, queueLimit: limit
                ) {
                    try? journal.boot(at: $0)
                }
            }
            client.step(.replayBegun(id: request.id, made.mapError { ReplayFailure(reason: $0.description) }))
        }
    }

    /// The handover made (or the journal's failure to make it): its first actions, then what waited.
    mutating func begun(_ made: Result<(ReplayHandover, [ReplayHandover.Action]), ReplayFailure>) -> [Step] {
        guard case .starting(let waiting) = phase else { return [] }
        var handover: ReplayHandover
        var actions: [ReplayHandover.Action]
        switch made {
        case .success(let (h, first)):
            handover = h
            // The starting actions go first: an ERROR, the first read (or live at once, for an empty journal).
            actions = first
            for event in waiting { if let seq = event.seq { actions += handover.live(seq: seq, line: event.line, journaled: event.journaled) } }
        case .failure(let failure):
            // A handover that is live from the start, for what was published meanwhile.
            handover = ReplayHandover.start(since: EventPosition(boot: "", seq: 1), span: nil) { _ in nil }.0
            actions = [.error("the replay could not start: \(failure.reason); live events follow")]
            for event in waiting { if let seq = event.seq { actions += handover.live(seq: seq, line: event.line) } }
        }
        phase = .running(handover)
        return steps(actions, paced: true)
    }

    /// A live numbered event.
    mutating func live(_ event: PublishedEvent) -> [Step] {
        guard let seq = event.seq else { return [] }
        switch phase {
        case .starting(var waiting):
            waiting.append(event)
            phase = .starting(waiting)
            return []
        case .running(var handover):
            let paced = !handover.isLive
            let actions = handover.live(seq: seq, line: event.line, journaled: event.journaled)
            phase = .running(handover)
            return steps(actions, paced: paced, live: event)
        }
    }

    /// A batch read (or the journal's failure mid-replay). `missedLive` says, given whether the batch takes
    /// the replay live, whether live events were left out since the last batch: it reads again for them.
    mutating func journaled(_ read: Result<[JournaledEvent], ReplayFailure>, missedLive: (_ goingLive: Bool) -> Bool) -> [Step] {
        guard case .running(var handover) = phase else { return [] }
        let actions: [ReplayHandover.Action]
        switch read {
        case .success(let batch):
            if missedLive(handover.goesLive(after: batch)) { handover.missedLive() }
            actions = handover.journaled(batch)
        case .failure(let failure):
            actions = handover.journalFailed(failure.reason)
        }
        phase = .running(handover)
        return steps(actions, paced: true)
    }

    /// Reads the batch after `seq` on `pool`; it comes back through the client's outbox (`journaled`).
    func read(after seq: Int) {
        let journal = request.journal, client = client, id = id
        let classes = request.watch.classes.map { Set($0.map(\.rawValue)) }
        pool.submit { _ in
            let batch = Result { () throws(JournalError) in try journal.events(after: seq, limit: Self.batchLimit, classes: classes) }
            client.step(.batch(id: id, batch.mapError { ReplayFailure(reason: $0.description) }))
        }
    }

    /// The handover's actions as the writer's steps. Lines before `.goLive` belong to the replay (`paced`).
    private func steps(_ actions: [ReplayHandover.Action], paced: Bool, live: PublishedEvent? = nil) -> [Step] {
        var paced = paced
        var steps: [Step] = []
        for action in actions {
            switch action {
            case .error(let message): steps.append(.send(Event.error(message).line, paced: true))
            case .send(let line): if accepts(line, live: live) { steps.append(.send(line, paced: paced)) }
            case .read(let after): steps.append(.read(after: after))
            case .goLive: paced = false
            }
        }
        return steps
    }

    /// Whether the client takes a line the handover sends: the live event's own test, or the line read back
    /// as a client reads it (a journaled one, or one queued while the replay ran).
    private func accepts(_ line: String, live: PublishedEvent?) -> Bool {
        let watch = request.watch
        if let live, line == live.line { return watch.accepts(live.event) }
        if watch.enable, watch.classes == nil, watch.formats == nil { return true }
        guard let received = try? EventDecoder.decode(line) else { return false }
        return watch.accepts(received)
    }
}
