import Foundation
import Testing
import ScandCapture
import ScandCore
import ScandDecoding
import ScandTestSupport
@testable import ScandPipeline

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
        let path = TestFiles.directory("scand-still-mjpeg") + "/still.rec"
        try await OffPool.run {
            let symbol = try SymbolWriter.render(.qrCode, text: "left on the reader", moduleSize: 4)
            let held = Scene.page(width: 640, height: 480, background: 230, centred: [(symbol, x: 320, y: 240)])
            let moved = Scene.page(width: 640, height: 480, background: 230, centred: [(symbol, x: 200, y: 200)])
            let writer = try Recording.Writer(path: path, format: .compressed(.mjpeg, width: 640, height: 480, maxBytes: 640 * 480 * 2))
            try Self.noisy(held, frames: 0..<90, seed: 1, into: writer)
            try Self.noisy(moved, frames: 90..<100, seed: 2, into: writer)
            try writer.finish()
        }

        var options = CaptureSession.Options()
        options.delivery = ReplaySource.Pace.lockstep.delivery
        let lines = LivePipelineTests.Lines()
        let pipeline = LivePipeline(
            source: ReplaySource(path: path, pace: .lockstep), decoder: FrameDecoder(), output: lines.sink, captureOptions: options,
            clock: ReplaySource.Pace.lockstep.clock)
        await pipeline.run()
        let c = pipeline.counters, whole = pipeline.captureCounters.decompressed
        let scans = lines.all.filter { $0.contains(#""class":"SCAN""#) }
        #expect(scans.count == 1 && scans[0].contains("left on the reader"), "\(scans)")
        #expect(c.decoded + c.skippedStatic == 100 && c.corrupt == 0, "\(c)")
        // Decoded whole: the frames decoded, and of the resting ones only the first after a decoded one (decoded
        // whole before it was judged, as the frame after a decoded one most often is decoded too: once as the
        // ticket settles, once after the periodic recheck, once after the move); no snapshot was asked for.
        #expect(whole >= c.decoded && whole <= c.decoded + 3, "\(whole) whole of \(c)")
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

    /// A frame decoded whole is judged by its 8×8 block means: the same scene as its eighth-size decode, for a
    /// noisy page, one with saturated glare and one of a width and height that are not multiples of 8; and a
    /// code moved by a few modules is a change either way.
    @Test func aWholeFramesBlockMeansJudgeItsSceneAsItsEighthDoes() throws {
        let symbol = try SymbolWriter.render(.ean13, text: "5901234123457", moduleSize: 3)
        for (width, height) in [(640, 480), (1280, 720), (645, 363)] {
            var glare = Scene.page(width: width, height: height, background: 200, centred: [(symbol, x: width / 2, y: height / 2)])
            for y in 0..<height / 3 { for x in 0..<width / 3 { glare[x, y] = 255 } }
            let moved = Scene.page(width: width, height: height, background: 200, centred: [(symbol, x: width / 2 + 12, y: height / 2)])
            let encoder = MJPEGEncoder(), handOff = FrameHandOff(), decoder = MJPEGDecoder()
            func signatures(_ page: LumaImage) throws -> (eighth: SceneSignature, whole: SceneSignature) {
                let frame = encoder.frame(page)
                let small = try #require(frame.withUnsafeBytes { decoder.eighth($0, width: width, height: height) })
                let grey = try #require(handOff.decompress(frame, with: decoder))
                return (SceneSignature(grey: small.pixels, width: small.width, height: small.height), SceneSignature(eighthOf: grey))
            }
            let (eighth, whole) = try signatures(glare)
            #expect(whole.cells.count == SceneSignature.columns * SceneSignature.rows)
            let worst = zip(eighth.cells, whole.cells).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 2 && whole.isStatic(comparedTo: eighth) && eighth.isStatic(comparedTo: whole), "\(width)x\(height): worst cell \(worst)")
            let (movedEighth, movedWhole) = try signatures(moved)
            #expect(!movedWhole.isStatic(comparedTo: eighth) && !movedEighth.isStatic(comparedTo: whole), "\(width)x\(height)")
            // A grey frame's block rows are read a word at a time, a YUYV frame's a pixel at a time: the same sums.
            let grey = Frame(format: .packed(.grey, width: width, height: height), bytes: glare.pixels, sequence: 0, timestampMicroseconds: 0)
            #expect(SceneSignature(eighthOf: grey) == SceneSignature(eighthOf: Frame.yuyv(glare)), "\(width)x\(height)")
        }
    }
}
