import Foundation
import Testing
import ScandCore
import ScandTestSupport
@testable import ScandCapture

/// Recordings through the capture loop: a recording that breaks off ends the session once (a camera would
/// be waited for), and a stop is not held up by a long recorded pause.
@Suite struct ReplayCaptureTests {
    let dir: String = {
        let d = NSTemporaryDirectory() + "scand-replay-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    final class Statuses: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [DeviceStatus] = []
        func add(_ s: DeviceStatus) { lock.withLock { list.append(s) } }
        var all: [DeviceStatus] { lock.withLock { list } }
    }

    /// Frames of 8x4 YUYV, stamped `gapMicroseconds` apart.
    func recording(_ name: String, frames: Int, gapMicroseconds: UInt64) throws -> String {
        try Scene.record((0..<frames).lazy.map { LumaImage(width: 8, height: 4, fill: UInt8($0)) }, to: dir + "/" + name,
                         gapMicroseconds: gapMicroseconds)
    }

    @Test func aTruncatedRecordingEndsTheSessionOnceAndIsNotReopened() throws {
        let path = try recording("cut.rec", frames: 5, gapMicroseconds: 1000)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size - 20)) == 0)
        var options = CaptureLoop.Options()
        options.backoff = .init(initial: .milliseconds(1), maximum: .milliseconds(1))
        let statuses = Statuses()
        let slot = LatestFrameSlot()
        let loop = CaptureLoop(source: ReplaySource(path: path, pace: .asFastAsPossible), slot: slot, options: options,
                               onStatus: { statuses.add($0) })
        loop.start()
        while slot.take() != nil {}
        loop.wait()
        #expect(statuses.all.map(\.state) == [.streaming, .stopped], "\(statuses.all)")
        #expect(statuses.all.last?.failed == true && statuses.all.last?.reason?.contains("breaks off in frame 5") == true)
        #expect(loop.failure?.kind == .truncatedRecording)
        #expect(slot.counters.captured == 4)
    }

    @Test func aStopDuringALongRecordedPauseEndsAtOnce() throws {
        let path = try recording("paused.rec", frames: 2, gapMicroseconds: 10_000_000)
        let slot = LatestFrameSlot()
        let loop = CaptureLoop(source: ReplaySource(path: path, pace: .recorded), slot: slot, onStatus: { _ in })
        loop.start()
        #expect(slot.take() != nil)
        usleep(300_000)  // well into the 10 s pause
        let asked = ContinuousClock.now
        loop.stop()
        loop.wait()
        #expect(ContinuousClock.now - asked < .milliseconds(500), "SIGTERM during a replay at recorded pace ends within 0.5 s")
    }

    @Test func aRecordedPauseLongerThanTheFrameTimeoutIsNoLostCamera() throws {
        let path = try recording("slow.rec", frames: 3, gapMicroseconds: 700_000)
        var options = CaptureLoop.Options()
        options.frameTimeoutMilliseconds = 300
        let statuses = Statuses()
        let slot = LatestFrameSlot()
        let loop = CaptureLoop(source: ReplaySource(path: path, pace: .recorded), slot: slot, options: options, onStatus: { statuses.add($0) })
        loop.start()
        var sequences: [UInt64] = []
        while let f = slot.take() { sequences.append(f.sequence) }
        loop.wait()
        #expect(sequences == [0, 1, 2])
        #expect(statuses.all.map(\.state) == [.streaming, .stopped] && statuses.all.last?.reason == "end of recording")
    }
}
