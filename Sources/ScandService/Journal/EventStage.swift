import Dispatch
import ScandProtocol

/// The daemon's one event path after the pipeline: each event is numbered and journaled (`EventLog`, SQLite
/// I/O), then handed to stdout's queue and the socket's hub, in order, on a serial queue of its own. No lock
/// is held while the journal commits or the hub writes; the producers (the decode loop, the capture
/// session, the journal's upkeep) only enqueue. At most `limit` events wait: past that a producer waits for
/// room (the journal stalled on a hung disk), the one way not to lose an event.
final class EventStage: Sendable {
    private let queue = DispatchQueue(label: "scand-events")
    private let room: DispatchSemaphore
    private let events: EventLog
    private let publish: @Sendable (PublishedEvent) -> Void

    init(events: EventLog, limit: Int = 4096, publish: @escaping @Sendable (PublishedEvent) -> Void) {
        self.events = events
        self.publish = publish
        room = DispatchSemaphore(value: limit)
    }

    func submit(_ event: Event) {
        run { $0.stamp(event) }
    }

    /// The journal's upkeep (a replaced file, a retried disk), in the events' order.
    func upkeep() {
        run { $0.upkeep() }
    }

    private func run(_ work: @escaping @Sendable (EventLog) -> [PublishedEvent]) {
        room.wait()
        queue.async { [self] in
            work(events).forEach(publish)
            room.signal()
        }
    }

    /// Once everything submitted before is published.
    func drained() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
    }
}
