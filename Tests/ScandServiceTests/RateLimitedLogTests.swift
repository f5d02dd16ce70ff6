import Foundation
import Testing
@testable import ScandService

@Suite struct RateLimitedLogTests {
    final class Clock: @unchecked Sendable {
        var now: UInt64 = 1_000_000
    }

    @Test func oneLinePerIntervalSayingHowManyWereHeldBack() {
        let clock = Clock()
        let lines = LivePipelineTests.Lines()
        let log = RateLimitedLog(interval: .seconds(10), log: { line, _ in lines.event(line) }, now: { clock.now })
        for _ in 0..<1000 { log("refused") }
        clock.now += 10_000_000
        log("refused")
        clock.now += 1_000_000
        log("refused")
        #expect(lines.all == ["refused", "refused (and 999 more like it not logged since the last)"])
    }
}
