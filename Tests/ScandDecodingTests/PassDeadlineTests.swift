import Testing

@testable import ScandDecoding

/// Issue 31, 9: a fixed 2 s pass deadline killed a healthy decoder again and again on a machine that takes most
/// of a second a frame. The deadline follows the measured speed, and an overrun lengthens it.
@Suite struct PassDeadlineTests {
    @Test func anOrdinaryMachineKeepsTheFloor() {
        var d = PassDeadline()
        for _ in 0..<100 { d.decoded(seconds: 0.02, overran: false) }
        #expect(d.milliseconds == 2000)
    }

    @Test func aSlowMachineGetsDeadlinesItsFramesFitIn() {
        var d = PassDeadline()
        for _ in 0..<30 { d.decoded(seconds: 0.8, overran: false) }
        #expect(d.milliseconds == 3200, "four frames' time")
    }

    @Test func overrunsDoubleTheDeadlineUpToTheCeilingAndFramesInTimeBringItBack() {
        var d = PassDeadline()
        d.decoded(seconds: 0.05, overran: false)
        var seen: [Int] = []
        for _ in 0..<6 {
            d.decoded(seconds: 2, overran: true)
            seen.append(d.milliseconds)
        }
        #expect(seen == [4000, 8000, 16000, 30000, 30000, 30000])
        for _ in 0..<200 { d.decoded(seconds: 0.05, overran: false) }
        #expect(d.milliseconds == 2000)
    }

    @Test func nonsenseTimesChangeNothing() {
        var d = PassDeadline()
        for t in [Double.nan, .infinity, -1] { d.decoded(seconds: t, overran: false) }
        #expect(d.milliseconds == 2000 && d.typicalFrameSeconds == nil)
    }
}
