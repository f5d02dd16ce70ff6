import Foundation
import Testing
import ScandCapture
import ScandCore
import ScandDecoding
import ScandTestSupport
import ScandRuntime
@testable import ScandPipeline

/// Decoder processes that die between frames are replaced at the next read without a failed pass; STATUS
/// and STATS count them as `workerRestarts`.
@Suite struct WorkerRestartTests {
    /// A camera whose frames show a QR code, moving from frame to frame (a still scene would rest, and not every
    /// frame be decoded); before frames 4 and 7, once every earlier frame is decoded, it kills the decoder
    /// processes, as an out-of-memory killer or an administrator might while they are idle.
    final class KillingCamera: FrameSource, @unchecked Sendable {
        let name = "/dev/video-killing"
        var waitsForDevice: Bool { true }
        let frames: [Frame]
        let worker: DecoderWorker
        /// Frames the pipeline has decoded so far.
        var decoded: () -> Int = { 0 }
        var served = 0
        var killed: Set<Int32> = []
        init(_ frames: [Frame], worker: DecoderWorker) {
            self.frames = frames
            self.worker = worker
        }
        func open() throws(CaptureError) -> FrameFormat { frames[0].format }
        func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame? {
            served += 1
            if served > 9 { throw CaptureError(.endOfStream, path: name) }
            if served == 4 || served == 7 {
                Eventually.wait(seconds: 10) { decoded() >= served - 1 }
                for pid in worker.processIDs where !killed.contains(pid) && kill(pid, SIGKILL) == 0 { killed.insert(pid) }
                // Dead before the frame goes out: a process slow to exit (under a sanitizer, say) is not the point.
                Eventually.wait(seconds: 5) { killed.allSatisfy(DecoderProcessWatch.hasEnded) }
            }
            var f = frames[served % frames.count]
            f.sequence = UInt64(served)
            f.timestampMicroseconds = Monotonic.microseconds()
            return f
        }
        func close() {}
    }

    @Test func processesKilledBetweenFramesAreCounted() async throws {
        let symbol = try SymbolWriter.render(.qrCode, text: "restart", moduleSize: 3)
        let frames = [200, 320].map { x in
            var page = LumaImage(width: 640, height: 480, fill: 235)
            page.paste(symbol, x: x, y: 200)
            return Frame.yuyv(page)
        }
        let worker = try #require(DecoderWorker())
        let camera = KillingCamera(frames, worker: worker)
        let lines = LivePipelineTests.Lines()
        var options = CaptureSession.Options()
        options.delivery = .every  // every frame decoded: the decoder is idle when the camera waits for it
        let pipeline = LivePipeline(
            source: camera, decoder: FrameDecoder(decoder: ZXingDecoder(worker: worker)), output: lines.sink,
            captureOptions: options)
        camera.decoded = { [weak pipeline] in pipeline?.counters.decoded ?? 0 }
        await pipeline.run()
        let c = pipeline.counters
        #expect(camera.killed.count >= 2, "processes were running to be killed")
        #expect(c.workerRestarts == camera.killed.count, "\(c)")
        #expect(c.failed == 0 && c.decoded == 9 && c.codes == c.decoded, "the replaced processes read every frame")
        #expect(pipeline.statsEvent().line.contains(#""workerRestarts":\#(camera.killed.count)"#))
    }
}
