import Foundation
import Testing
import ScandCapture
import ScandCore
import ScandDecoding
import ScandTestSupport
@testable import ScandService

/// Issue 30, 5: an MJPEG camera's still scene is judged from each frame decoded at an eighth of its size, so a
/// ticket left on the reader, or an empty counter, is not decoded whole frame after frame; a change still is.
@Suite struct StillMJPEGSceneTests {
    /// `frames` MJPEG frames of `page` under fresh sensor noise each (±4 levels, as a webcam's), 30 fps.
    static func noisy(_ page: LumaImage, frames: Range<Int>, seed: UInt64, into writer: Recording.Writer) throws {
        let encoder = MJPEGEncoder()
        var state = seed
        for i in frames {
            var noisy = page
            for p in noisy.pixels.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                noisy.pixels[p] = UInt8(clamping: Int(noisy.pixels[p]) + Int(state >> 61) - 4)
            }
            try writer.append(encoder.frame(noisy, sequence: UInt64(i), timestampMicroseconds: UInt64(i) * 33_333))
        }
    }

    @Test func aStillTicketIsNotDecodedWholeAndAMovedOneIs() async throws {
        let symbol = try SymbolWriter.render(.qrCode, text: "left on the reader", moduleSize: 4)
        let held = Scene.page(width: 640, height: 480, background: 230, centred: [(symbol, x: 320, y: 240)])
        let moved = Scene.page(width: 640, height: 480, background: 230, centred: [(symbol, x: 200, y: 200)])
        let path = TestFiles.directory("scand-still-mjpeg") + "/still.rec"
        let writer = try Recording.Writer(path: path, format: .compressed(.mjpeg, width: 640, height: 480, maxBytes: 640 * 480 * 2))
        try Self.noisy(held, frames: 0..<90, seed: 1, into: writer)
        try Self.noisy(moved, frames: 90..<100, seed: 2, into: writer)
        try writer.finish()

        var options = CaptureSession.Options()
        options.delivery = ReplaySource.Pace.lockstep.delivery
        let lines = LivePipelineTests.Lines()
        let pipeline = LivePipeline(
            source: ReplaySource(path: path, pace: .lockstep), decoder: FrameDecoder(), output: lines.sink, captureOptions: options,
            clock: ReplaySource.Pace.lockstep.clock)
        pipeline.start()
        await pipeline.finished()
        let c = pipeline.counters, whole = pipeline.captureCounters.decompressed
        let scans = lines.all.filter { $0.contains(#""class":"SCAN""#) }
        #expect(scans.count == 1 && scans[0].contains("left on the reader"), "\(scans)")
        #expect(c.decoded + c.skippedStatic == 100 && c.corrupt == 0, "\(c)")
        // Decoded whole: the frames decoded, and no resting one (no snapshot was asked for).
        #expect(whole == c.decoded, "\(whole) whole of \(c)")
        #expect(c.skippedStatic >= 60, "the held ticket rests under the noise: \(c)")
        // The move is a change: decoded at once, the code not lost.
        #expect(!lines.all.contains { $0.contains(#""class":"LOST""#) && $0.contains(#""frame":9"#) })
    }

    @Test func anEighthOfAFrameHoldsItsBlockMeans() throws {
        var page = LumaImage(width: 640, height: 480, fill: 0)
        for y in 0..<480 { for x in 0..<640 { page[x, y] = UInt8((x / 40 + y / 30) % 2 == 0 ? 60 : 200) } }
        let frame = MJPEGEncoder(quality: 90).frame(page)
        let small = try #require(frame.withUnsafeBytes { MJPEGDecoder().eighth($0, width: 640, height: 480) })
        #expect(small.width == 80 && small.height == 60)
        var worst = 0
        for y in 0..<60 {
            for x in 0..<80 {
                var sum = 0
                for dy in 0..<8 { for dx in 0..<8 { sum += Int(page[8 * x + dx, 8 * y + dy]) } }
                worst = max(worst, abs(Int(small.pixels[y * 80 + x]) - sum / 64))
            }
        }
        #expect(worst <= 16, "each pixel the mean of its 8x8 block, within JPEG's losses: worst \(worst)")
        let wrongSize = frame.withUnsafeBytes { MJPEGDecoder().eighth($0, width: 320, height: 240) }
        #expect(wrongSize == nil, "not the stream's size")
    }
}
