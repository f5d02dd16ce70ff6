import NIOConcurrencyHelpers
import NIOPosix
import ScandCore
import ScandProtocol
import ScandJournal
import ScandEventLog

/// One client's `since`: carries out its `ReplayHandover`. The client is registered for live events before
/// the journal is first read (events published meanwhile wait here); journal reads run on `pool` (NIO's
/// thread pool), never on the event loop or the cooperative pool, one after another; the next batch is read once
/// the client has taken most of the last one, so a replay costs a bounded amount of memory per client.
final class SubscriberReplay: Sendable {
    /// Lines still waiting for the client when the next batch is read.
    static let lowWater = 32
    static let batchLimit = 256

    private enum Phase {
        /// Registered; the handover starts on `pool`. Live events published meanwhile, in order.
        case starting([PublishedEvent])
        case running(ReplayHandover)
    }
    private let phase = NIOLockedValueBox(Phase.starting([]))
    private let client: Subscriber
    private let journal: EventJournal
    private let watch: ClientRequest.Watch
    private let pool: NIOThreadPool
    private let queueLimit: Int

    private init(client: Subscriber, journal: EventJournal, watch: ClientRequest.Watch, pool: NIOThreadPool, queueLimit: Int) {
        self.client = client
        self.journal = journal
        self.watch = watch
        self.pool = pool
        self.queueLimit = queueLimit
    }

    /// Registers `client` for live events through a replay from `since`, then starts it on `pool`.
    static func start(
        _ client: Subscriber, since: EventPosition, watch: ClientRequest.Watch, journal: EventJournal,
        pool: NIOThreadPool, queueLimit: Int
    ) {
        let replay = SubscriberReplay(client: client, journal: journal, watch: watch, pool: pool, queueLimit: queueLimit)
        client.replay(replay)
        pool.submit { _ in replay.begin(since: since) }
    }

    private func begin(since: EventPosition) {
        let journal = self.journal
        let span: JournalSpan?
        do { span = try journal.span() } catch { return fail(error.description) }
        let (handover, actions) = ReplayHandover.start(
            since: since, span: span, journalBase: journal.base, batchLimit: Self.batchLimit, queueLimit: max(queueLimit, Self.batchLimit)
        ) {
            try? journal.boot(at: $0)
        }
        phase.withLockedValue { phase in
            guard case .starting(let waiting) = phase else { return }
            var handover = handover
            // The starting actions go first: an ERROR, the first read (or live at once, for an empty journal).
            var all = actions
            for event in waiting { if let seq = event.seq { all += handover.live(seq: seq, line: event.line, journaled: event.journaled) } }
            phase = .running(handover)
            perform(all, paced: true)
        }
    }

    /// A live event: true when the replay took it (false for one outside the numbering).
    func live(_ event: PublishedEvent) -> Bool {
        guard let seq = event.seq else { return false }
        phase.withLockedValue { phase in
            switch phase {
            case .starting(var waiting):
                waiting.append(event)
                phase = .starting(waiting)
            case .running(var handover):
                let paced = !handover.isLive
                let actions = handover.live(seq: seq, line: event.line, journaled: event.journaled)
                phase = .running(handover)
                perform(actions, paced: paced, live: event)
            }
        }
        return true
    }

    /// Carries out actions, under the phase lock: what is sent goes out in the handover's order. Lines
    /// before `.goLive` belong to the replay (`paced`).
    private func perform(_ actions: [ReplayHandover.Action], paced: Bool, live: PublishedEvent? = nil) {
        var paced = paced
        for action in actions {
            switch action {
            case .error(let message):
                client.send(Event.error(message).line, paced: true)
            case .send(let line):
                if accepts(line, live: live) { client.send(line, paced: paced) }
            case .read(let after):
                client.whenDrained(lowWater: Self.lowWater) { [self] in pool.submit { _ in self.read(after: after) } }
            case .goLive:
                paced = false
            }
        }
    }

    /// Whether the client takes a line the handover sends: the live event's own test, or the line read back
    /// as a client reads it (a journaled one, or one queued while the replay ran).
    private func accepts(_ line: String, live: PublishedEvent?) -> Bool {
        if let live, line == live.line { return watch.accepts(live.event) }
        if watch.enable, watch.classes == nil, watch.formats == nil { return true }
        guard let received = try? EventDecoder.decode(line) else { return false }
        return watch.accepts(received)
    }

    private func read(after seq: Int) {
        guard !client.isClosing, client.currentReplay === self else { return }
        let batch: [JournaledEvent]
        do {
            batch = try journal.events(after: seq, limit: Self.batchLimit, classes: watch.classes.map { Set($0.map(\.rawValue)) })
        } catch {
            return fail(error.description)
        }
        phase.withLockedValue { phase in
            guard case .running(var handover) = phase else { return }
            let actions = handover.journaled(batch)
            phase = .running(handover)
            perform(actions, paced: true)
        }
    }

    /// The journal failed mid-replay (or at its start): what waits goes out and the client goes live.
    private func fail(_ reason: String) {
        phase.withLockedValue { phase in
            var handover: ReplayHandover
            var actions: [ReplayHandover.Action]
            switch phase {
            case .running(let h):
                handover = h
                actions = handover.journalFailed(reason)
            case .starting(let waiting):
                // A handover that is live from the start, for what was published meanwhile.
                handover = ReplayHandover.start(since: EventPosition(boot: "", seq: 1), span: nil) { _ in nil }.0
                actions = [.error("the replay could not start: \(reason); live events follow")]
                for event in waiting { if let seq = event.seq { actions += handover.live(seq: seq, line: event.line) } }
            }
            phase = .running(handover)
            perform(actions, paced: true)
        }
    }
}
