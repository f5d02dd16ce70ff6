import Foundation
import NIOConcurrencyHelpers
import ScandLogging
import Testing
import ScandTestSupport
@testable import ScandSocket

@Suite struct RateLimitedLogTests {
    /// The log's clock, moved by the test.
    final class Clock: Sendable {
        private let value = NIOLockedValueBox<UInt64>(1_000_000)
        var now: UInt64 { value.withLockedValue { $0 } }
        func advance(_ microseconds: UInt64) { value.withLockedValue { $0 += microseconds } }
    }

    @Test func oneLinePerIntervalSayingHowManyWereHeldBack() {
        let clock = Clock()
        let lines = WrittenLines()
        let log = RateLimitedLog(interval: .seconds(10), log: .scand(write: { line, _ in lines.event(line) }), now: { clock.now })
        for _ in 0..<1000 { log("refused") }
        clock.advance(10_000_000)
        log("refused")
        clock.advance(1_000_000)
        log("refused")
        #expect(lines.all == ["refused", "refused (and 999 more like it not logged since the last)"])
    }

    /// Connections' tasks log at once: still one line per interval, and every line held back is counted.
    @Test func callersAtOnceLogOneLineAndCountTheRest() async {
        let clock = Clock()
        let lines = WrittenLines()
        let log = RateLimitedLog(interval: .seconds(10), log: .scand(write: { line, _ in lines.event(line) }), now: { clock.now })
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<250 { log("refused") } } }
        }
        clock.advance(10_000_000)
        log("refused")
        #expect(lines.all == ["refused", "refused (and 1999 more like it not logged since the last)"])
    }
}
