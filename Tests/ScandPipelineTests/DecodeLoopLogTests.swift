import Testing
@testable import ScandPipeline

/// The decode loop's log lines say what happened in numbers a reader can use.
@Suite struct DecodeLoopLogTests {
    /// Issue 48: the overrun line said "decodes a frame in about 0 ms" on a fast machine.
    @Test func aFramesDecodingTimeIsNeverSaidAsZero() {
        #expect(DecodeLoop.milliseconds(0.0004) == "0.4 ms")
        #expect(DecodeLoop.milliseconds(0.0094) == "9.4 ms")
        #expect(DecodeLoop.milliseconds(0.340) == "340 ms")
    }
}
