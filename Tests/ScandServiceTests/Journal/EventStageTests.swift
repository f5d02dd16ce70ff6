import Foundation
import Logging
import NIOConcurrencyHelpers
import ScandJournal
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandService

/// The event stage while its journal stalls (a hung disk): its producers, the daemon's tasks among them,
/// must never block a thread; one that can wait suspends in `room()` until events are done.
@Suite struct EventStageTests {
    @Test(.timeLimit(.minutes(1))) func aStalledJournalBlocksNoProducerAndRoomWaitsUntilEventsAreDone() async {
        let released = NIOLockedValueBox(false)
        let roomMade = NIOLockedValueBox(false)
        // Each line published, and whether room had been made by then.
        let published = NIOLockedValueBox<[(line: String, roomMade: Bool)]>([])
        let events = EventLog(directory: nil, limits: .init(maxEvents: 10, maxAge: 1e9), log: .scand(write: { _, _ in }))
        let stage = EventStage(events: events, limit: 2) { event in
            // Stalled as a commit on a hung disk would be: this blocks a thread of NIO's pool, as that would.
            Eventually.wait(seconds: 50) { released.withLockedValue { $0 } }
            published.withLockedValue { $0.append((event.event.line, roomMade.withLockedValue { $0 })) }
        }
        // Past the limit of 2 on the cooperative pool: a stage that blocked here would never come back.
        for i in 0..<5 { stage.submit(.error("event \(i)")) }
        let waiter = Task {
            await stage.room()
            roomMade.withLockedValue { $0 = true }
        }
        released.withLockedValue { $0 = true }
        await waiter.value
        await stage.drained()
        let lines = published.withLockedValue { $0 }
        #expect(lines.map(\.line) == (0..<5).map { Event.error("event \($0)").line }, "every event, in order")
        #expect(lines.prefix(4).allSatisfy { !$0.roomMade }, "room only once fewer than 2 events wait")
    }
}
