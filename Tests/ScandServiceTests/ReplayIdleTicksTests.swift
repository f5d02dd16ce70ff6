import Testing
@testable import ScandService

@Suite struct ReplayIdleTicksTests {
    static let tick = Duration.milliseconds(100)

    @Test func lockstepTicksBeforeAFrameThatEndsAStretchWithoutFrames() {
        var ticks = ReplayIdleTicks(decoderTakesRecordedTime: false)
        var at: [UInt64?] = []
        for stamp: UInt64 in [1_000_000, 1_033_000, 1_133_001, 3_000_000] {
            at.append(ticks.take(stamp: stamp, idleTick: Self.tick))
            // However long a decode took by the wall clock, it takes no recorded time in lockstep.
            ticks.done(busyMicroseconds: 5_000_000)
        }
        #expect(at == [nil, nil, 1_133_000, 2_999_999])
        #expect(ticks.lastStamp == 3_000_000)
    }

    /// A fast replay on a slow machine: three seconds a decode, a frame every 100 ms. Live, the decoder is busy
    /// all along and hears no tick; the frame it takes next is matched to the code it holds before anything
    /// expires (the item held up is one SCAN, not LOST and scanned again when its gap passed the forget time).
    @Test func aFastReplaysBusyDecoderHearsNoTickBetweenTheFramesItTakes() {
        var ticks = ReplayIdleTicks(decoderTakesRecordedTime: true)
        // The pacer hands over the frame that waited for the decoder: stamped before it was done.
        var stamp: UInt64 = 0
        for _ in 0..<5 {
            #expect(ticks.take(stamp: stamp, idleTick: Self.tick) == nil)
            ticks.done(busyMicroseconds: 3_000_000)
            stamp += 2_950_000
        }
    }

    @Test func aFastReplayTicksOnlyForTheStretchAfterItsDecoderWasDone() {
        var ticks = ReplayIdleTicks(decoderTakesRecordedTime: true)
        #expect(ticks.take(stamp: 0, idleTick: Self.tick) == nil)
        ticks.done(busyMicroseconds: 950_000)
        // Done at 0.95 s: a frame at 1.0 s ends 50 ms of idleness, one at 2.1 s (after a 50 ms decode) 1.1 s.
        #expect(ticks.take(stamp: 1_000_000, idleTick: Self.tick) == nil)
        ticks.done(busyMicroseconds: 50_000)
        #expect(ticks.take(stamp: 2_100_000, idleTick: Self.tick) == 2_099_999)
    }

    @Test func aWallTimeNoDecodeTakesCannotOverflowTheRecordedClock() {
        var ticks = ReplayIdleTicks(decoderTakesRecordedTime: true)
        _ = ticks.take(stamp: 1 << 53, idleTick: Self.tick)
        ticks.done(busyMicroseconds: .max)
        #expect(ticks.take(stamp: 1 << 53, idleTick: Self.tick) == nil)
    }
}
