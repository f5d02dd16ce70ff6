import Foundation
import NIOConcurrencyHelpers
import Testing
import ScandTestSupport
import ScandCore
import ScandProtocol
@testable import ScandService

@Suite struct LineWriterTests {
    /// A stdout nobody reads: the writer blocks in its first line, what fits waits, the rest is dropped and
    /// counted, the drop is reported once, and publishing never blocks.
    @Test func aStdoutNobodyReadsNeverBlocksThePublisher() async {
        let readAgain = NIOLockedValueBox(false)
        let reports = WrittenLines()
        let console = StdoutSubscriber(
            limit: 8, write: { _ in Eventually.wait(seconds: 60) { readAgain.withLockedValue { $0 } } },
            onFirstDrop: { reports.event(.error("dropped")) })
        for i in 0..<100 { console.publish(Event.error("line \(i)").line) }
        #expect(console.dropped >= 100 - 8 - 1 && console.dropped <= 100 - 8)
        #expect(reports.all == [Event.error("dropped").line])
        #expect(!(await console.drain(within: .milliseconds(50))))
        readAgain.withLockedValue { $0 = true }
    }

    @Test func aReadStdoutGetsEveryLineInOrder() async {
        let written = WrittenLines()
        let console = StdoutSubscriber(limit: 1000, write: { written.event($0) }, onFirstDrop: {})
        for i in 0..<500 { console.publish(Event.error("line \(i)").line) }
        #expect(await console.drain(within: .seconds(10)))
        #expect(written.all == (0..<500).map { Event.error("line \($0)").line } && console.dropped == 0)
    }
}
