import Foundation
import Testing
import ScandCapture
import ScandCore
import ScandProtocol
import ScandDecoding
import ScandTestSupport
import ScandTracking
import ScandRuntime
@testable import ScandPipeline

/// The live pipeline on replayed frames: the real capture session, frame hand-off, decoder and event writer.
@Suite struct LivePipelineTests {
    /// What a pipeline wrote, from the decode loop's thread.
    typealias Lines = WrittenLines

    /// `frames` frames of `items` (format, text, centre), drawn and recorded off the cooperative pool (`OffPool`).
    func recording(
        _ items: [(BarcodeFormat, String, Int, Int)], frames: Int, name: String, gapMicroseconds: UInt64 = 33_333
    ) async throws
        -> String
    {
        try await OffPool.run {
            let page = Scene.page(
                width: 640, height: 480, background: 235,
                centred: try items.map { f, text, x, y in
                    (try SymbolWriter.render(f, text: text, moduleSize: 3), x: x, y: y)
                })
            return try Scene.record(
                repeatElement(page, count: frames), to: NSTemporaryDirectory() + "scand-pipeline-\(getpid())-\(name).rec",
                gapMicroseconds: gapMicroseconds)
        }
    }

    func run(
        _ path: String, pace: ReplaySource.Pace, decoder: FrameDecoder = FrameDecoder(), tracker: TrackerSettings = TrackerSettings()
    ) async -> (Lines, LivePipeline) {
        let lines = Lines()
        // Each pace as `scand run` has it (lockstep: the capture waits for the decoder, no frame is dropped).
        var options = CaptureSession.Options()
        options.delivery = pace.delivery
        let pipeline = LivePipeline(
            source: ReplaySource(path: path, pace: pace), decoder: decoder, output: lines.sink, captureOptions: options,
            tracker: tracker, clock: pace.clock)
        await pipeline.run()
        return (lines, pipeline)
    }

    @Test func everyFrameAtTheRecordedPaceIsDecoded() async throws {
        let path = try await recording([(.qrCode, "paced", 320, 240)], frames: 10, name: "paced")
        let (lines, pipeline) = await run(path, pace: .recorded)
        let c = pipeline.counters
        // A still scene whose code is scanned may rest (skippedStatic) on a machine slow enough to try every pass.
        #expect(c.captured == 10 && c.decoded + c.dropped + c.skippedStatic == 10, "\(c)")
        #expect(c.codes == c.decoded, "the code is read in every decoded frame")
        let scans = lines.all.filter { $0.contains(#""class":"SCAN""#) }
        #expect(c.scans == 1 && scans.count == 1, "and reported once")
        #expect(scans.allSatisfy { $0.contains(#""text":"paced""#) && $0.contains(#""latencyMs":"#) && $0.contains(#""id":1"#) }, "\(scans)")
        #expect(lines.all.first?.contains(#""state":"streaming""#) == true)
        #expect(lines.all.contains { $0.contains(#""state":"stopped","message":"end of recording""#) })
    }

    /// A recording that ends 66 ms after a book's EAN-13 came into view, before its add-on wait is over: the
    /// code is scanned at the end, without an add-on, not lost with the frames.
    @Test func aCodeWaitingForItsAddOnWhenTheRecordingEndsIsScanned() async throws {
        let path = try await recording([(.ean13, "9780306406157", 320, 240)], frames: 3, name: "add-on-at-end")
        let (lines, _) = await run(path, pace: .lockstep)
        let scans = lines.all.filter { $0.contains(#""class":"SCAN""#) }
        #expect(scans.count == 1 && scans.allSatisfy { $0.contains(#""text":"9780306406157""#) }, "\(lines.all)")
    }

    @Test func framesGoFromTheSourceIntoTheDecodersSharedMemory() async throws {
        let path = try await recording([(.qrCode, "shared", 320, 240)], frames: 8, name: "shared")
        let worker = try #require(DecoderWorker())
        let (_, pipeline) = await run(path, pace: .recorded, decoder: FrameDecoder(decoder: ZXingDecoder(worker: worker)))
        let c = pipeline.counters
        #expect(c.decoded > 0 && c.decoded + c.dropped + c.skippedStatic == 8 && c.codes == c.decoded, "\(c)")
        #expect(worker.copiedReads == 0, "each frame was captured into shared memory and read there")
    }

    /// A camera that is unplugged after a few frames and comes back.
    final class UnpluggedCamera: FrameSource, @unchecked Sendable {
        let name = "/dev/video-unplugged"
        var waitsForDevice: Bool { true }
        let frame: Frame
        var opens = 0, served = 0
        init(_ frame: Frame) { self.frame = frame }
        func open() throws(CaptureError) -> FrameFormat { opens += 1; served = 0; return frame.format }
        func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame? {
            served += 1
            if opens == 1 && served > 3 { throw CaptureError(.disconnected, path: name) }
            if opens > 1 && served > 3 { throw CaptureError(.endOfStream, path: name) }
            var f = frame
            f.sequence = UInt64(opens * 10 + served)
            f.timestampMicroseconds = Monotonic.microseconds()
            return f
        }
        func close() {}
    }

    @Test func aLostCameraTakesTheDecoderProcessesWithIt() async throws {
        var page = LumaImage(width: 640, height: 480, fill: 235)
        page.paste(try SymbolWriter.render(.qrCode, text: "unplugged", moduleSize: 3), x: 280, y: 200)
        let worker = try #require(DecoderWorker())
        var options = CaptureSession.Options()
        options.backoff = .init(initial: .milliseconds(10), maximum: .milliseconds(10))
        options.delivery = .every  // every frame decoded, after the loss too, however slow the machine
        let lines = Lines()
        let pipeline = LivePipeline(
            source: UnpluggedCamera(Frame.yuyv(page)), decoder: FrameDecoder(decoder: ZXingDecoder(worker: worker)),
            output: lines.sink, captureOptions: options)
        await pipeline.run()
        #expect(lines.all.contains { $0.contains(#""state":"lost""#) })
        #expect(pipeline.counters.codes > 0)
        // The processes of the first connection were ended at the loss; frames after it started new ones.
        #expect(worker.generation >= 2 * worker.lanes, "generation \(worker.generation)")
    }

    @Test func framesArrivingWhileTheDecoderIsBusyAreDroppedAndCounted() async throws {
        let path = try await recording([(.qrCode, "fast", 320, 240)], frames: 30, name: "fast")
        let (_, pipeline) = await run(path, pace: .flood)
        let c = pipeline.counters
        #expect(c.captured == 30)
        #expect(c.dropped > 0, "replayed far faster than one core decodes")
        #expect(c.decoded + c.dropped + c.skippedStatic == 30, "the scene is still: once its code is scanned, it rests")
        #expect(pipeline.statsEvent().line.contains(#""captured":30"#))
    }

    @Test func aLockstepReplayKeepsTheRecordedStampsWithoutWaitingForThem() async throws {
        // Four frames a thousand seconds apart: a recorded-pace replay takes fifty minutes, a lockstep one the
        // decoding's time (seconds; minutes under ThreadSanitizer beside the other suites, far from fifty).
        let path = try await recording([(.qrCode, "fast", 320, 240)], frames: 4, name: "lockstep-paced", gapMicroseconds: 1_000_000_000)
        let started = ContinuousClock.now
        let (lines, pipeline) = await run(path, pace: .lockstep)
        #expect(ContinuousClock.now - started < .seconds(1000), "the recorded fifty minutes were not waited for")
        let c = pipeline.counters
        #expect(c.captured == 4 && c.decoded == 4 && c.dropped == 0, "none dropped in lockstep: \(c)")
        // The tracker's time is the recorded one, as live: unseen for a thousand seconds, the code is lost and
        // forgotten before the next frame, which scans it anew (on the wall clock the four frames fall within
        // a second: one SCAN). No latency is measured against recorded stamps.
        let scans = lines.all.filter { $0.contains(#""class":"SCAN""#) }
        #expect(scans.count == 4 && scans.allSatisfy { $0.contains(#""text":"fast""#) && !$0.contains("latencyMs") }, "\(lines.all)")
        #expect(lines.all.filter { $0.contains(#""class":"LOST""#) }.count >= 3, "\(lines.all)")
    }

    @Test func rotationMirrorAndRegionApplyToTheOrientedFrame() async throws {
        // Left code at x=160 and right code at x=480; rotated by 180° the left one lands on the right.
        let path = try await recording([(.qrCode, "left", 160, 240), (.qrCode, "right", 480, 240)], frames: 3, name: "rot")
        let roi = try NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let decoder = FrameDecoder(
            formats: BarcodeFormats(.qrCode), regionOfInterest: roi, transform: FrameTransform(rotation: .half, mirrored: false))
        let (lines, _) = await run(path, pace: .recorded, decoder: decoder)
        let texts = Set(
            lines.all.filter { $0.contains("SCAN") }.compactMap { line -> String? in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["text"] as? String
            })
        #expect(texts == ["left"])
    }
}

/// A finished pipeline is freed, and with it its decoder worker process: a reload must not leak either.
@Suite struct PipelineLifetimeTests {
    @Test func aFinishedPipelineIsReleased() async throws {
        let path = try await LivePipelineTests().recording([(.qrCode, "bye", 320, 240)], frames: 3, name: "lifetime")
        weak var released: LivePipeline?
        do {
            let pipeline = LivePipeline(
                source: ReplaySource(path: path, pace: .flood), decoder: FrameDecoder(),
                output: OutputSink(event: { _ in }, log: { _ in }))
            released = pipeline
            await pipeline.run()
        }
        #expect(await Eventually.check(seconds: 1) { released == nil })
    }
}

extension WrittenLines {
    /// Events and log lines written into these lines.
    var sink: OutputSink { OutputSink(event: { self.event($0.line) }, log: { self.log($0) }) }
}
