import Foundation
import NIOConcurrencyHelpers
import Testing
import ScandCore
import ScandTestSupport
@testable import ScandCapture

/// The capture session's own part: where it runs its source, and what it hands on.
@Suite struct CaptureSessionTests {
    /// A camera that notes which thread each call comes from.
    final class ThreadNotingCamera: FrameSource, @unchecked Sendable {
        let name = "/dev/video-noting"
        var waitsForDevice: Bool { true }
        let threads = NIOLockedValueBox<Set<String>>([])
        var served = 0
        func note() { _ = threads.withLockedValue { $0.insert(OwnEventLoopTests.currentThreadName()) } }
        func open() throws(CaptureError) -> FrameFormat { note(); return .packed(.grey, width: 2, height: 2) }
        func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame? {
            note()
            served += 1
            if served > 5 { throw CaptureError(.endOfStream, path: name) }
            return Frame(format: .packed(.grey, width: 2, height: 2), bytes: [0, 0, 0, 0], sequence: UInt64(served), timestampMicroseconds: 0)
        }
        func close() { note() }
    }

    @Test func theSourceIsOnlyEverCalledFromTheCaptureThread() async {
        let camera = ThreadNotingCamera()
        let session = CaptureSession(source: camera, onStatus: { _ in })
        async let run: Void = session.run()
        for await _ in session.handOff.frames {}
        await run
        #expect(camera.threads.withLockedValue { $0 } == ["scand-capture"])
    }

    @Test func everyCapturedFrameIsTakenOrCountedAsDropped() async throws {
        let dir = TestFiles.directory("scand-session")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/fast.rec"
        let writer = try Recording.Writer(path: path, format: .packed(.yuyv, width: 8, height: 4))
        for i in 0..<40 { try writer.append(Frame.yuyv(LumaImage(width: 8, height: 4, fill: UInt8(i)), sequence: UInt64(i))) }
        try writer.finish()
        // Frames captured into a pool of three buffers, as into the decoder's shared memory: a replaced
        // frame whose buffer did not come back would leave the next one in an array instead.
        let pool = FrameHandOffTests.BufferPool(buffers: 3)
        let source = ReplaySource(path: path, pace: .flood)
        source.captureLuma { count in pool.allocate(count) }
        let session = CaptureSession(source: source, onStatus: { _ in })
        async let run: Void = session.run()
        var taken: [Frame] = []
        for await frame in session.handOff.frames {
            taken.append(frame)
            taken = taken.suffix(1)  // a decoder holds one frame at a time
            // and is slower than the replay: two more frames are captured while it holds this one.
            let next = min(40, session.handOff.counters.captured + 2)
            _ = await Eventually.check(seconds: 10) { session.handOff.counters.captured >= next }
        }
        await run
        let c = session.handOff.counters
        #expect(c.captured == 40 && c.taken + c.dropped == 40)
        #expect(taken.allSatisfy { if case .shared = $0.storage { true } else { false } })
        taken = []
        #expect(pool.available == 3, "every buffer is back once the frames are gone")
    }
}
