import Testing

@testable import ScandPipeline

/// STATUS's sharpness holds the best figure of the last second: it no longer flickers to 0 and back between
/// sharp frames (issue 46, item 11).
@Suite struct FocusHoldTests {
    @Test func aFrameWithoutEdgesBetweenSharpOnesDoesNotDropTheFigure() {
        var hold = FocusHold()
        hold.take(400, at: 0)
        hold.take(0, at: 250_000)
        #expect(hold.value == 400)
        hold.take(380, at: 500_000)
        hold.take(0, at: 750_000)
        #expect(hold.value == 400)
    }

    @Test func aFigureOlderThanASecondNoLongerCounts() {
        var hold = FocusHold()
        hold.take(400, at: 0)
        hold.take(120, at: 600_000)
        hold.take(100, at: 1_100_000)
        #expect(hold.value == 120, "the 400 of 1.1 s ago is gone")
        hold.take(0, at: 2_200_000)
        #expect(hold.value == 0, "nothing sharp for a second is 0")
    }

    @Test func noFigureOrAClockGoingBackStartsAfresh() {
        var hold = FocusHold()
        hold.take(400, at: 5_000_000)
        hold.take(nil, at: 5_100_000)
        #expect(hold.value == nil)
        hold.take(300, at: 5_200_000)
        hold.take(50, at: 10)
        #expect(hold.value == 50, "a replay that looped")
    }
}
