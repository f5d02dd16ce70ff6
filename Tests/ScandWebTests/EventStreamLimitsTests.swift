import Testing
import ScandTestSupport

@testable import ScandWeb

/// The bounds of /events: streams at once, and of those, streams catching up from the journal.
@Suite struct EventStreamLimitsTests {
    @Test func streamsAndCatchUpsAreCountedAndFreed() throws {
        let limits = EventStreamLimits(maxStreams: 3, maxCatchingUp: 1)
        let first = try limits.admit(catchingUp: true)
        #expect(throws: EventStreamLimits.Refusal.self, "a second catch-up waits for the first") { try limits.admit(catchingUp: true) }
        let second = try limits.admit(catchingUp: false)
        #expect(limits.open == (streams: 2, catchingUp: 1))
        first.endCatchUp()
        _ = try limits.admit(catchingUp: true)
        do {
            _ = try limits.admit(catchingUp: false)
            Issue.record("a fourth stream was admitted")
        } catch {
            #expect(error.description.contains("3 event streams are open already"))
        }
        second.end()
        _ = try limits.admit(catchingUp: false)
        #expect(limits.open == (streams: 3, catchingUp: 1))
    }

    /// A stream ends twice over (its response, its connection's close) and its catch-up ends with it when the
    /// connection goes first: each place is given back once.
    @Test func aPlaceIsGivenBackOnceWhicheverEndComesFirst() throws {
        let limits = EventStreamLimits(maxStreams: 2, maxCatchingUp: 1)
        let place = try limits.admit(catchingUp: true)
        place.end()
        #expect(limits.open == (streams: 0, catchingUp: 0))
        place.endCatchUp()
        place.end()
        #expect(limits.open == (streams: 0, catchingUp: 0))
        _ = try limits.admit(catchingUp: true)
        _ = try limits.admit(catchingUp: false)
        #expect(limits.open == (streams: 2, catchingUp: 1))
    }

    @Test func aRefusedStreamLeavesNoSubscriptionBehind() async {
        let hub = PageHub()
        let (items, _, _, end) = await hub.subscribe(onOverflow: {})
        #expect(await hub.subscriberCount == 1)
        end()
        #expect(await Eventually.check { await hub.subscriberCount == 0 })
        withExtendedLifetime(items) {}
    }
}
