import Testing

@testable import ScandWeb

/// The bounds of /events: streams at once, and of those, streams catching up from the journal.
@Suite struct EventStreamLimitsTests {
    @Test func streamsAndCatchUpsAreCountedAndFreed() {
        let limits = EventStreamLimits(maxStreams: 3, maxCatchingUp: 1)
        #expect(limits.admit(catchingUp: true) == nil)
        #expect(limits.admit(catchingUp: true)?.contains("catching up") == true, "a second catch-up waits for the first")
        #expect(limits.admit(catchingUp: false) == nil)
        #expect(limits.open == (streams: 2, catchingUp: 1))
        limits.endCatchUp()
        #expect(limits.admit(catchingUp: true) == nil)
        #expect(limits.admit(catchingUp: false)?.contains("3 event streams are open already") == true)
        limits.endStream()
        #expect(limits.admit(catchingUp: false) == nil)
        #expect(limits.open == (streams: 3, catchingUp: 1))
    }

    @Test func aRefusedStreamLeavesNoSubscriptionBehind() {
        let hub = PageHub()
        let (items, _, end) = hub.subscribe(onOverflow: {})
        withExtendedLifetime(items) {
            #expect(hub.subscriberCount == 1)
            end()
            #expect(hub.subscriberCount == 0)
        }
    }
}
