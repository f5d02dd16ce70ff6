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
        func note() { _ = threads.withLockedValue { $0.insert(ThreadName.current()) } }
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

    /// A camera that always has a frame at once (a poll never waits), and notes what was asked of it, in order.
    final class StreamingCamera: FrameSource, @unchecked Sendable {
        let name = "/dev/video-streaming"
        var waitsForDevice: Bool { true }
        /// "frame" or "set gain=N", from the capture thread; read by the test.
        let calls = NIOLockedValueBox<[String]>([])
        var frames: Int { calls.withLockedValue { $0.filter { $0 == "frame" }.count } }
        func open() throws(CaptureError) -> FrameFormat { .packed(.grey, width: 2, height: 2) }
        func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame? {
            let n = calls.withLockedValue { c in
                c.append("frame")
                return c.count
            }
            return Frame(format: .packed(.grey, width: 2, height: 2), bytes: [0, 0, 0, 0], sequence: UInt64(n), timestampMicroseconds: 0)
        }
        func close() {}
        func controls() throws(CaptureError) -> [CameraControl]? { [] }
        func setControls(_ settings: [CameraControlSetting]) throws(CaptureError) -> [CameraControl] {
            calls.withLockedValue { $0.append(settings.map { "set \($0.name)=\($0.value)" }.joined()) }
            return []
        }
    }

    /// The stop is a call on the actor, taken between two frames: a source that never makes the loop wait does
    /// not keep it out, and no frame is read after it was taken.
    @Test func aStopIsTakenAtTheNextFrameBoundaryOfAStreamThatNeverWaits() async {
        let camera = StreamingCamera()
        let session = CaptureSession(source: camera, onStatus: { _ in })
        async let run: Void = session.run()
        async let drained: Void = { for await _ in session.handOff.frames {} }()
        #expect(await Eventually.check { camera.frames >= 20 })
        await session.stop()
        let framesAtStop = camera.frames
        await run
        await drained
        #expect(camera.frames == framesAtStop, "no frame was read after the stop was taken")
    }

    /// Camera controls are calls on the actor too, carried out between two frames on the capture thread while
    /// the stream goes on.
    @Test func aControlRequestIsCarriedOutBetweenFramesWhileStreaming() async throws {
        let camera = StreamingCamera()
        let session = CaptureSession(source: camera, onStatus: { _ in })
        async let run: Void = session.run()
        async let drained: Void = { for await _ in session.handOff.frames {} }()
        #expect(await Eventually.check { camera.frames >= 5 })
        for gain in 1...3 {
            _ = try await session.cameraControls(set: [CameraControlSetting(name: "gain", value: .integer(gain))])
        }
        #expect(try await session.cameraControls() == [])
        let framesAfter = camera.frames
        #expect(await Eventually.check { camera.frames > framesAfter + 5 }, "the stream went on")
        await session.stop()
        await run
        await drained
        let calls = camera.calls.withLockedValue { $0 }
        let sets = calls.indices.filter { calls[$0].hasPrefix("set") }
        #expect(sets.map { calls[$0] } == ["set gain=1", "set gain=2", "set gain=3"])
        // Requests that came while one was carried out are carried out at the same boundary; frames go on after.
        #expect(sets.first.map { $0 >= 5 } == true && sets.last.map { calls[($0 + 1)...].count > 5 } == true, "\(calls)")
        await #expect(throws: CaptureError.self) { try await session.cameraControls() }
    }
}
