import ScandCore
import Testing

@testable import ScandCapture

/// The recorded clock of fast replays, in lockstep: frames 33,333 µs apart and a decoder that takes
/// `work` µs on each; what it takes is what a camera at that pace would have left it.
@Suite struct RecordedClockPacerTests {
    func frames(_ count: Int) -> [Frame] {
        (0..<count).map { n in
            Frame(
                format: .packed(.grey, width: 1, height: 1), storage: .array([0]), sequence: UInt64(n),
                timestampMicroseconds: 5_000_000 + UInt64(n) * 33_333)
        }
    }

    /// The frames handed over, in order, and how many were dropped.
    func paced(_ frames: [Frame], workMicroseconds work: UInt64) -> (taken: [UInt64], dropped: Int) {
        var pacer = RecordedClockPacer()
        var taken: [UInt64] = [], dropped = 0
        for frame in frames {
            var again = true
            while again {
                switch pacer.arrive(frame) {
                case .wait(let earlier):
                    if earlier != nil { dropped += 1 }
                    again = false
                case .handOver(let offered, let startsAt, let more):
                    taken.append(offered.sequence)
                    pacer.done(startedAt: startsAt, busyMicroseconds: work)
                    again = more
                }
            }
        }
        if let last = pacer.finish() { taken.append(last.sequence) }
        return (taken, dropped)
    }

    @Test func aSlowDecoderMissesWhatItWouldMissLive() {
        // Busy 100 ms a frame: frame 0 is taken at 0 ms and done at 100; 1 (33), 2 (67) and 3 (100) came
        // meanwhile and 3, the newest, is taken at 100; then 6 at 200 and 9 at 300; 10 (333) came while 9
        // was worked on and, the last, is taken at 400.
        let (taken, dropped) = paced(frames(11), workMicroseconds: 100_000)
        #expect(taken == [0, 3, 6, 9, 10])
        #expect(dropped == 6)
    }

    @Test func aDecoderThatKeepsUpTakesEveryFrame() {
        let (taken, dropped) = paced(frames(30), workMicroseconds: 20_000)
        #expect(taken == Array(0..<30))
        #expect(dropped == 0)
    }

    @Test func aFrameLeftWaitingIsTakenWhenTheDecoderIsDoneBeforeTheNext() {
        // Busy 50 ms: 1 (33) waits for 0 to be done (50). 2 (67) comes after that, so 1 was taken at 50; it is
        // done at 100, after 2 came: 2 waits, and 3 (100) replaces it.
        var pacer = RecordedClockPacer()
        let f = frames(4)
        guard case .handOver(let first, let at0, false) = pacer.arrive(f[0]) else { Issue.record("0 handed over"); return }
        #expect(first.sequence == 0 && at0 == 5_000_000)
        pacer.done(startedAt: at0, busyMicroseconds: 50_000)
        guard case .wait(nil) = pacer.arrive(f[1]) else { Issue.record("1 waits"); return }
        guard case .handOver(let waited, let at1, true) = pacer.arrive(f[2]) else { Issue.record("1 handed over first"); return }
        #expect(waited.sequence == 1 && at1 == 5_050_000, "begun when 0 was done")
        pacer.done(startedAt: at1, busyMicroseconds: 50_000)
        guard case .wait(nil) = pacer.arrive(f[2]) else { Issue.record("2 waits"); return }
        guard case .wait(let replaced?) = pacer.arrive(f[3]) else { Issue.record("3 replaces 2"); return }
        #expect(replaced.sequence == 2)
        #expect(pacer.finish()?.sequence == 3)
    }
}
