import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ScandProtocol

/// The daemon's one event path after the pipeline: each event is numbered and journaled (`EventLog`, SQLite
/// I/O), then handed to stdout's queue and the socket's hub, in order, one at a time on NIO's thread pool
/// (the daemon's one path for blocking file work; one drain at a time). No lock is held while the journal
/// commits or the hub writes, and producers (the decode loop, the capture session, the journal's upkeep)
/// only enqueue: none ever blocks a thread. Past `limit` waiting events (the journal stalled on a hung disk)
/// `room()` suspends a producer that can wait until some are done, the one way not to lose an event.
final class EventStage: Sendable {
    private enum Job: Sendable {
        case work(@Sendable (EventLog) -> [PublishedEvent])
        /// Everything enqueued before it is published.
        case mark(CheckedContinuation<Void, Never>)
    }
    private struct State {
        var jobs = CircularBuffer<Job>()
        /// Events enqueued and not yet published.
        var waiting = 0
        /// A drain runs on the pool: it takes the jobs until none is left.
        var draining = false
        var roomWanted: [CheckedContinuation<Void, Never>] = []
    }
    private let state = NIOLockedValueBox(State())
    private let events: EventLog
    private let publish: @Sendable (PublishedEvent) -> Void
    private let limit: Int

    init(events: EventLog, limit: Int = 4096, publish: @escaping @Sendable (PublishedEvent) -> Void) {
        self.events = events
        self.publish = publish
        self.limit = max(1, limit)
    }

    /// Enqueues `event`; never blocks.
    func submit(_ event: Event) {
        enqueue(.work { $0.stamp(event) })
    }

    /// The journal's upkeep (a replaced file, a retried disk), in the events' order.
    func upkeep() {
        enqueue(.work { $0.upkeep() })
    }

    /// Returns once fewer than `limit` events wait.
    func room() async {
        await withCheckedContinuation { (wanted: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { s in
                guard s.waiting >= limit else { return true }
                s.roomWanted.append(wanted)
                return false
            }
            if now { wanted.resume() }
        }
    }

    /// Once everything submitted before is published.
    func drained() async {
        await withCheckedContinuation { enqueue(.mark($0)) }
    }

    private func enqueue(_ job: Job) {
        let start = state.withLockedValue { s in
            s.jobs.append(job)
            if case .work = job { s.waiting += 1 }
            defer { s.draining = true }
            return !s.draining
        }
        if start { NIOThreadPool.singleton.submit { [self] _ in drain() } }
    }

    /// On the pool: the jobs in order until none is left.
    private func drain() {
        while let job = state.withLockedValue({ s -> Job? in
            if s.jobs.isEmpty { s.draining = false }
            return s.jobs.popFirst()
        }) {
            switch job {
            case .mark(let done):
                done.resume()
            case .work(let work):
                work(events).forEach(publish)
                let roomMade = state.withLockedValue { s -> [CheckedContinuation<Void, Never>] in
                    s.waiting -= 1
                    guard s.waiting < limit else { return [] }
                    defer { s.roomWanted = [] }
                    return s.roomWanted
                }
                for wanted in roomMade { wanted.resume() }
            }
        }
    }
}
