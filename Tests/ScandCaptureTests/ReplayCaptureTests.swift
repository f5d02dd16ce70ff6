import Foundation
import NIOConcurrencyHelpers
import Testing
import ScandCore
import ScandTestSupport
import ScandRuntime
@testable import ScandCapture

/// Recordings through the capture session: a recording that breaks off ends the session once (a camera would
/// be waited for), and a stop is not held up by a long recorded pause.
@Suite struct ReplayCaptureTests {
    let dir: String = {
        let d = NSTemporaryDirectory() + "scand-replay-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    final class Statuses: Sendable {
        private let list = NIOLockedValueBox<[DeviceStatus]>([])
        func add(_ s: DeviceStatus) { list.withLockedValue { $0.append(s) } }
        var all: [DeviceStatus] { list.withLockedValue { $0 } }
    }

    /// Frames of 8x4 YUYV, stamped `gapMicroseconds` apart.
    func recording(_ name: String, frames: Int, gapMicroseconds: UInt64) throws -> String {
        try Scene.record(
            (0..<frames).lazy.map { LumaImage(width: 8, height: 4, fill: UInt8($0)) }, to: dir + "/" + name,
            gapMicroseconds: gapMicroseconds)
    }

    @Test func aTruncatedRecordingEndsTheSessionOnceAndIsNotReopened() async throws {
        let path = try recording("cut.rec", frames: 5, gapMicroseconds: 1000)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size - 20)) == 0)
        var options = CaptureSession.Options()
        options.backoff = .init(initial: .milliseconds(1), maximum: .milliseconds(1))
        let statuses = Statuses()
        let session = CaptureSession(
            source: ReplaySource(path: path, pace: .flood), options: options,
            onStatus: { statuses.add($0) })
        async let run: Void = session.run()
        for await _ in session.handOff.frames {}
        await run
        #expect(statuses.all.map(\.state) == [.streaming, .stopped], "\(statuses.all)")
        #expect(statuses.all.last?.failed == true && statuses.all.last?.reason?.contains("breaks off in frame 5") == true)
        #expect(await session.failure?.kind == .truncatedRecording)
        #expect(session.handOff.counters.captured == 4)
    }

    @Test func aStopDuringALongRecordedPauseEndsAtOnce() async throws {
        let path = try recording("paused.rec", frames: 2, gapMicroseconds: 30_000_000)
        // Stamped by the capture thread as it announces the stop: the test runner's own pace does not count.
        let stoppedAt = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
        let session = CaptureSession(
            source: ReplaySource(path: path, pace: .recorded),
            onStatus: { status in
                if status.state == .stopped { stoppedAt.withLockedValue { $0 = .now } }
            })
        async let run: Void = session.run()
        var frames = session.handOff.frames
        #expect(await frames.next() != nil)
        // Into the 30 s pause: a poll for the next frame (200 ms each) came back empty.
        #expect(await Eventually.check { session.activity.loop >= session.activity.frame + 150_000 })
        let asked = ContinuousClock.now
        await session.stop()
        await run
        let stopped = try #require(stoppedAt.withLockedValue { $0 })
        // Within a poll (200 ms) on a quiet machine; the bound is what a loaded test machine needs (1.4–4.3 s seen in
        // runs beside other suites), far from the 30 s a stop that waited out the pause would take.
        #expect(stopped - asked < .seconds(5), "SIGTERM during a replay at recorded pace ends without waiting out its pause")
    }

    @Test func aRecordedPauseLongerThanTheFrameTimeoutIsNoLostCamera() async throws {
        let path = try recording("slow.rec", frames: 3, gapMicroseconds: 700_000)
        var options = CaptureSession.Options()
        options.frameTimeoutMilliseconds = 300
        // Every frame handed on: a test pool too busy to start the taker within the 700 ms gap must not make the
        // newest-frame hand-off drop frame 0 (what is checked here is the pause, not the dropping).
        options.delivery = .every
        let statuses = Statuses()
        let session = CaptureSession(source: ReplaySource(path: path, pace: .recorded), options: options, onStatus: { statuses.add($0) })
        async let run: Void = session.run()
        // Taken on a loop of its own, as the decode loop takes them.
        let sequences = await Taker().take(session.handOff)
        await run
        #expect(sequences == [0, 1, 2])
        #expect(statuses.all.map(\.state) == [.streaming, .stopped] && statuses.all.last?.reason == "end of recording")
    }
}

/// Takes frames on an event loop of its own, as the decode loop does.
private actor Taker {
    nonisolated let executor = OwnEventLoop(name: "scand-taker")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }

    func take(_ handOff: FrameHandOff) async -> [UInt64] {
        var seen: [UInt64] = []
        for await f in handOff.frames { seen.append(f.sequence) }
        return seen
    }
}
