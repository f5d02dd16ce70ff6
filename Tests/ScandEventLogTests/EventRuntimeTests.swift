import Foundation
import NIOConcurrencyHelpers
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing
import ScandRuntime

@testable import ScandEventLog

/// The event runtime while its journal stalls (a hung disk): its producers, the daemon's tasks among them,
/// must never block a thread; one that can wait suspends in `room()` until events are done.
@Suite struct EventRuntimeTests {
    static func events() -> EventLog {
        EventLog(directory: nil, limits: .init(maxEvents: 10, maxAge: 1e9), log: .scand(write: { _, _ in }))
    }

    @Test(.timeLimit(.minutes(1))) func aStalledJournalBlocksNoProducerAndRoomWaitsUntilEventsAreDone() async {
        let released = NIOLockedValueBox(false)
        let roomMade = NIOLockedValueBox(false)
        // Each line published, and whether room had been made by then.
        let published = NIOLockedValueBox<[(line: String, roomMade: Bool)]>([])
        let runtime = EventRuntime(events: Self.events(), limit: 2) { event in
            // Stalled as a commit on a hung disk would be: this blocks the runtime's loop, as that would.
            Eventually.wait(seconds: 50) { released.withLockedValue { $0 } }
            published.withLockedValue { $0.append((event.event.line, roomMade.withLockedValue { $0 })) }
        }
        // Past the limit of 2 on the cooperative pool: a runtime that blocked here would never come back.
        for i in 0..<5 { runtime.submit(.error("event \(i)")) }
        let waiter = Task {
            await runtime.room()
            roomMade.withLockedValue { $0 = true }
        }
        released.withLockedValue { $0 = true }
        await waiter.value
        await runtime.drained()
        let lines = published.withLockedValue { $0 }
        #expect(lines.map(\.line) == (0..<5).map { Event.error("event \($0)").line }, "every event, in order")
        #expect(lines.prefix(4).allSatisfy { !$0.roomMade }, "room only once fewer than 2 events wait")
    }

    /// Producers on threads of their own: every event is published once, on the runtime's own loop, each
    /// producer's in the order it gave them; `drained()` returns only after all of them.
    @Test(.timeLimit(.minutes(1))) func eventsFromManyProducersArePublishedOnceInTheirOrderOnTheRuntimesLoop() async {
        let published = NIOLockedValueBox<[String]>([])
        let loop = NIOLockedValueBox<OwnEventLoop?>(nil)
        let offTheLoop = NIOLockedValueBox(0)
        let runtime = EventRuntime(events: Self.events(), limit: 8) { event in
            if loop.withLockedValue({ $0 })?.isCurrent != true { offTheLoop.withLockedValue { $0 += 1 } }
            published.withLockedValue { $0.append(event.event.line) }
        }
        loop.withLockedValue { $0 = runtime.executor }
        let perProducer = 500, producers = 3
        let threads = (0..<producers).map { p in
            Thread { for i in 0..<perProducer { runtime.submit(.error("p\(p) \(i)")) } }
        }
        threads.forEach { $0.start() }
        #expect(await Eventually.check { threads.allSatisfy(\.isFinished) })
        await runtime.drained()
        let lines = published.withLockedValue { $0 }
        #expect(lines.count == perProducer * producers, "nothing lost or duplicated")
        for p in 0..<producers {
            let mine = lines.filter { $0.contains("p\(p) ") }
            #expect(mine == (0..<perProducer).map { Event.error("p\(p) \($0)").line })
        }
        #expect(offTheLoop.withLockedValue { $0 } == 0, "published on the runtime's loop only")
    }
}
