import Testing
@testable import ScandPipeline

@Suite struct ReplayIdleTicksTests {
    static let tick = Duration.milliseconds(100)

    @Test func lockstepTicksBeforeAFrameThatEndsAStretchWithoutFrames() {
        var ticks = ReplayIdleTicks()
        let at = [1_000_000, 1_033_000, 1_133_001, 3_000_000].map { ticks.take(stamp: $0, idleTick: Self.tick) }
        #expect(at == [nil, nil, 1_133_000, 2_999_999])
        #expect(ticks.lastStamp == 3_000_000)
    }

    /// A recording whose stamps go back (spliced, or a camera's clock reset) ticks on none of them and keeps the
    /// latest stamp as the time it ends at.
    @Test func stampsThatGoBackTickNothing() {
        var ticks = ReplayIdleTicks()
        let at = [5_000_000, 1_000_000, 4_000_000, 5_050_000].map { ticks.take(stamp: $0, idleTick: Self.tick) }
        #expect(at == [nil, nil, nil, nil])
        #expect(ticks.lastStamp == 5_050_000)
    }
}
