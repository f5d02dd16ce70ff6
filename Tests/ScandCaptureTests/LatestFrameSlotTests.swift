import Foundation
import Testing
import ScandCore
@testable import ScandCapture

@Suite struct LatestFrameSlotTests {
    func frame(_ n: UInt64) -> Frame {
        Frame(format: .packed(.grey, width: 1, height: 1), bytes: [UInt8(n)], sequence: n, timestampMicroseconds: n)
    }

    @Test func aBusyDecoderGetsTheNewestFrameAndTheRestAreCounted() {
        let slot = LatestFrameSlot()
        for n in 0..<5 { slot.put(frame(UInt64(n))) }
        #expect(slot.take()?.sequence == 4)
        slot.put(frame(5))
        #expect(slot.take()?.sequence == 5)
        #expect(slot.counters == { var c = CaptureCounters(); c.captured = 6; c.dropped = 4; c.taken = 2; return c }())
    }

    @Test func closingDrainsThenEnds() {
        let slot = LatestFrameSlot()
        slot.put(frame(1))
        slot.close()
        #expect(slot.take()?.sequence == 1)
        #expect(slot.take() == nil)
    }

    @Test func takeWaitsForAFrame() async {
        let slot = LatestFrameSlot()
        let taker = Thread { _ = slot.take() }
        taker.start()
        try? await Task.sleep(for: .milliseconds(50))
        #expect(!taker.isFinished)
        slot.put(frame(7))
        for _ in 0..<100 where !taker.isFinished { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(taker.isFinished)
    }
}
