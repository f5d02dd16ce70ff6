import Foundation
import Testing
@testable import ScandService

@Suite struct StdoutSubscriberTests {
    /// A stdout nobody reads: the writer blocks in its first line, what fits waits, the rest is dropped and
    /// counted, the drop is reported once, and publishing never blocks.
    @Test func aStdoutNobodyReadsNeverBlocksThePublisher() {
        let never = DispatchSemaphore(value: 0)
        let reports = LivePipelineTests.Lines()
        let console = StdoutSubscriber(limit: 8, write: { _ in never.wait() }, onFirstDrop: { reports.event("dropped") })
        for i in 0..<100 { console.publish("line \(i)") }
        #expect(console.dropped >= 100 - 8 - 1 && console.dropped <= 100 - 8)
        #expect(reports.all == ["dropped"])
        #expect(!console.drain(within: .milliseconds(50)))
        never.signal()
    }

    @Test func aReadStdoutGetsEveryLineInOrder() {
        let written = LivePipelineTests.Lines()
        let console = StdoutSubscriber(limit: 1000, write: { written.event($0) }, onFirstDrop: {})
        for i in 0..<500 { console.publish("line \(i)") }
        #expect(console.drain(within: .seconds(10)))
        #expect(written.all == (0..<500).map { "line \($0)" } && console.dropped == 0)
    }
}
