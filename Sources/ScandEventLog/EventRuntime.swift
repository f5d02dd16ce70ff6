import NIOCore
import ScandRuntime
import ScandProtocol
import Synchronization

/// The one owner of the daemon's events after the pipeline: each event is numbered and journaled (`EventLog`,
/// SQLite writes and fsync), encoded once, then handed to stdout's writer and the socket's hub, in the order
/// given, one at a time, on an event loop of its own (the actor's executor): the journal's blocking I/O holds
/// neither Swift's cooperative pool nor a loop the socket shares. Producers (the decode loop, the capture
/// session, the journal's upkeep) only enqueue a job on that loop: none ever blocks a thread. Past `limit`
/// waiting events (the journal stalled on a hung disk) `room()` suspends a producer that can wait until they
/// are done, the one way not to lose an event.
package actor EventRuntime {
    nonisolated let executor = OwnEventLoop(name: "scand-events")
    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }

    private let events: EventLog
    private let publish: @Sendable (PublishedEvent) -> Void
    private let limit: Int
    /// Events enqueued and not yet published: producers read it without a hop to the loop.
    private let waiting = Atomic<Int>(0)

    package init(events: EventLog, limit: Int = 4096, publish: @escaping @Sendable (PublishedEvent) -> Void) {
        self.events = events
        self.publish = publish
        self.limit = max(1, limit)
    }

    /// Enqueues `event` on the runtime's loop; never blocks.
    package nonisolated func submit(_ event: Event) {
        waiting.add(1, ordering: .relaxed)
        enqueue { runtime in
            runtime.events.stamp(event).forEach(runtime.publish)
            runtime.waiting.subtract(1, ordering: .relaxed)
        }
    }

    /// The journal's upkeep (a replaced file, a retried disk), in the events' order.
    package nonisolated func upkeep() {
        enqueue { runtime in runtime.events.upkeep().forEach(runtime.publish) }
    }

    /// Returns at once while fewer than `limit` events wait (a look at a counter, per frame, on the caller's
    /// executor), else once every event enqueued before is published.
    nonisolated(nonsending) package func room() async {
        guard waiting.load(ordering: .relaxed) >= limit else { return }
        await drained()
    }

    /// Returns once every event submitted before is published: this call is a job on the same loop, behind
    /// theirs (the loop runs its jobs in the order they came).
    package func drained() {}

    /// The loop's own queue keeps the order in which producers enqueue, which an actor call from a task
    /// would not: each job runs isolated to the runtime.
    private nonisolated func enqueue(_ job: @escaping @Sendable (isolated EventRuntime) -> Void) {
        executor.loop.execute { self.assumeIsolated { job($0) } }
    }
}
