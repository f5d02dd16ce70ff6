import NIOConcurrencyHelpers
import NIOPosix
import ScandProtocol

/// The daemon's one event path after the pipeline: each event is numbered and journaled (`EventLog`, SQLite
/// I/O), then handed to stdout's queue and the socket's hub, in order, one at a time on NIO's thread pool
/// (the daemon's one path for blocking file work). No lock is held while the journal commits or the hub
/// writes, and producers (the decode loop, the capture session, the journal's upkeep) only enqueue: none
/// ever blocks a thread. Past `limit` waiting events (the journal stalled on a hung disk) `room()` suspends
/// a producer that can wait until some are done, the one way not to lose an event.
final class EventStage: Sendable {
    private enum Job: Sendable {
        case work(@Sendable (EventLog) -> [PublishedEvent])
        /// Everything enqueued before it is published.
        case mark(CheckedContinuation<Void, Never>)
    }
    private struct State {
        var waiting = 0
        var roomWanted: [CheckedContinuation<Void, Never>] = []
    }
    private let state = NIOLockedValueBox(State())
    private let jobs: AsyncStream<Job>.Continuation
    private let limit: Int

    init(events: EventLog, limit: Int = 4096, publish: @escaping @Sendable (PublishedEvent) -> Void) {
        self.limit = max(1, limit)
        let (stream, jobs) = AsyncStream.makeStream(of: Job.self)  // `room` bounds it
        self.jobs = jobs
        let state = state, limit = self.limit
        // The stage's one consumer: a task that waits on the pool, which holds no thread while it does.
        Task {
            for await job in stream {
                switch job {
                case .mark(let done):
                    done.resume()
                case .work(let work):
                    _ = try? await NIOThreadPool.singleton.runIfActive { work(events).forEach(publish) }
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

    deinit { jobs.finish() }

    /// Enqueues `event`; never blocks.
    func submit(_ event: Event) {
        enqueue { $0.stamp(event) }
    }

    /// The journal's upkeep (a replaced file, a retried disk), in the events' order.
    func upkeep() {
        enqueue { $0.upkeep() }
    }

    private func enqueue(_ work: @escaping @Sendable (EventLog) -> [PublishedEvent]) {
        state.withLockedValue { $0.waiting += 1 }
        jobs.yield(.work(work))
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
        await withCheckedContinuation { jobs.yield(.mark($0)) }
    }
}
