import Testing
@testable import ScandCore

@Suite struct FrameFormatTests {
    @Test func fourccRoundTripsAndPrints() {
        #expect(FourCC.yuyv.rawValue == 0x5659_5559)
        #expect(FourCC("GREY").description == "GREY")
        #expect(FourCC(rawValue: 0x0000_0000).description == "????")
    }

    @Test func lumaLayoutsAndCompleteness() {
        let yuyv = FrameFormat.packed(.yuyv, width: 4, height: 2)
        #expect(yuyv.lumaLayout! == (0, 2))
        #expect(yuyv.isComplete(16) && !yuyv.isComplete(14))
        #expect(FrameFormat(fourcc: .uyvy, width: 4, height: 2, bytesPerLine: 8, imageSize: 16).lumaLayout! == (1, 2))
        #expect(FrameFormat(fourcc: .mjpeg, width: 4, height: 2, bytesPerLine: 0, imageSize: 100).lumaLayout == nil)
    }

    /// Issue 31, 3: a recording's `bytesPerLine` near 2^62 trapped in `isComplete`. Sizes from outside are
    /// checked by `problem`, and `isComplete` cannot trap whatever they are.
    @Test func sizesFromOutsideCannotTrap() {
        for (w, h, bpl, size) in [
            (4, 2, 1 << 62, 16), (4, Int.max, 8, 16), (Int.max, 2, 8, 16), (4, 2, Int.max, Int.max), (4, 2, -8, 16), (1 << 32, 1 << 32, 1 << 33, 16)
        ] {
            let f = FrameFormat(fourcc: .yuyv, width: w, height: h, bytesPerLine: bpl, imageSize: size)
            _ = f.isComplete(Int.max)  // no trap, whatever the answer
            #expect(f.problem != nil, "\(w)x\(h) \(bpl) \(size)")
        }
        #expect(FrameFormat(fourcc: .yuyv, width: 4, height: Int.max, bytesPerLine: 1 << 62, imageSize: 16).isComplete(Int.max) == false)
        #expect(FrameFormat.packed(.yuyv, width: 1280, height: 720).problem == nil)
        #expect(FrameFormat.compressed(.mjpeg, width: 1280, height: 720, maxBytes: 1 << 20).problem == nil)
        #expect(FrameFormat.compressed(.mjpeg, width: 1280, height: 720, maxBytes: Int.max).problem != nil)
    }

    @Test func yuyvFramesCarryTheirLuma() {
        let luma = LumaImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let frame = Frame.yuyv(luma)
        #expect(frame.bytes == [1, 128, 2, 128, 3, 128, 4, 128, 5, 128, 6, 128])
        #expect(frame.luma() == luma)
    }

    /// Plain heap memory standing in for the decoder's shared buffers (which ScandCore does not know).
    final class HeapMemory: FrameMemory, @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
        init(_ count: Int) { bytes = .allocate(byteCount: count, alignment: 16) }
        deinit { bytes.deallocate() }
    }

    @Test func capturingTakesTheLumaAloneFromEveryLayout() throws {
        let luma: [UInt8] = [1, 2, 3, 4, 5, 6]
        // 3x2 frames with padded rows (bytesPerLine beyond the pixels), as drivers deliver them.
        let yuyv = Frame(
            format: FrameFormat(fourcc: .yuyv, width: 3, height: 2, bytesPerLine: 8, imageSize: 16),
            bytes: [1, 128, 2, 128, 3, 128, 0, 0, 4, 128, 5, 128, 6, 128, 0, 0], sequence: 7, timestampMicroseconds: 9)
        let uyvy = Frame(
            format: FrameFormat(fourcc: .uyvy, width: 3, height: 2, bytesPerLine: 6, imageSize: 12),
            bytes: [128, 1, 128, 2, 128, 3, 128, 4, 128, 5, 128, 6], sequence: 7, timestampMicroseconds: 9)
        let nv12 = Frame(
            format: FrameFormat(fourcc: .nv12, width: 3, height: 2, bytesPerLine: 4, imageSize: 12),
            bytes: [1, 2, 3, 0, 4, 5, 6, 0, 128, 128, 128, 128], sequence: 7, timestampMicroseconds: 9)
        for source in [yuyv, uyvy, nv12] {
            let memory = HeapMemory(6)
            let frame = try #require(
                source.withUnsafeBytes {
                    Frame.capturingLuma(of: $0, format: source.format, into: memory, sequence: 7, timestampMicroseconds: 9)
                })
            #expect(frame.format == .packed(.grey, width: 3, height: 2) && frame.sequence == 7 && frame.timestampMicroseconds == 9)
            #expect(frame.bytes == luma, "\(source.format.fourcc)")
            #expect(frame.luma()?.pixels == luma)
        }
        let short = HeapMemory(5)
        #expect(
            yuyv.withUnsafeBytes { Frame.capturingLuma(of: $0, format: yuyv.format, into: short, sequence: 0, timestampMicroseconds: 0) } == nil,
            "memory too small")
        let cut = Array(yuyv.bytes.prefix(10))
        #expect(
            cut.withUnsafeBytes { Frame.capturingLuma(of: $0, format: yuyv.format, into: HeapMemory(6), sequence: 0, timestampMicroseconds: 0) }
                == nil,
            "a frame cut short")
    }

    @Test func sceneSignaturesSeeChangeNotNoise() {
        var a = LumaImage(width: 320, height: 180, fill: 120)
        var rng = 12345 as UInt32
        for i in a.pixels.indices {  // sensor noise of ±3 levels
            rng = rng &* 1_103_515_245 &+ 12345
            a.pixels[i] = UInt8(117 + Int(rng >> 16) % 7)
        }
        let base = SceneSignature(frame: .yuyv(LumaImage(width: 320, height: 180, fill: 120)))
        #expect(SceneSignature(frame: .yuyv(a)).isStatic(comparedTo: base))
        var hand = a
        hand.paste(LumaImage(width: 40, height: 40, fill: 20), x: 100, y: 60)
        #expect(!SceneSignature(frame: .yuyv(hand)).isStatic(comparedTo: base))
        #expect(!SceneSignature(frame: .yuyv(LumaImage(width: 320, height: 180, fill: 140))).isStatic(comparedTo: base), "a light switched on")
    }

    /// A cheap webcam in a dim shop: noise of about ±12 levels, a new draw every frame. The same scene is
    /// static however the noise falls; a small label slid by a few of its modules is not.
    @Test func aNoisyStillSceneIsStaticAndASmallMoveIsNot() {
        func frame(labelAt x: Int, seed: UInt32) -> Frame {
            var page = LumaImage(width: 1280, height: 720, fill: 150)
            var label = LumaImage(width: 190, height: 70, fill: 225)
            for bar in stride(from: 10, to: 180, by: 6) { label.paste(LumaImage(width: 2, height: 60, fill: 40), x: bar, y: 5) }
            page.paste(label, x: x, y: 300)
            var rng = seed
            for i in page.pixels.indices {
                rng = rng &* 1_103_515_245 &+ 12345
                page.pixels[i] = UInt8(clamping: Int(page.pixels[i]) + Int(rng >> 16) % 25 - 12)
            }
            return .yuyv(page)
        }
        let base = SceneSignature(frame: frame(labelAt: 500, seed: 1))
        for seed in 2...6 as ClosedRange<UInt32> { #expect(SceneSignature(frame: frame(labelAt: 500, seed: seed)).isStatic(comparedTo: base)) }
        #expect(!SceneSignature(frame: frame(labelAt: 530, seed: 7)).isStatic(comparedTo: base))
    }

    @Test(arguments: FrameTransform.Rotation.allCases)
    func orientationMatchesTheTransform(_ rotation: FrameTransform.Rotation) {
        let img = LumaImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        for mirrored in [false, true] {
            let t = FrameTransform(rotation: rotation, mirrored: mirrored)
            let o = img.oriented(by: t)
            #expect((o.width, o.height) == t.orientedSize(width: 3, height: 2))
            for y in 0..<2 {
                for x in 0..<3 {
                    let q = t.apply(Point(Double(x) + 0.5, Double(y) + 0.5), width: 3, height: 2)
                    #expect(o[Int(q.x), Int(q.y)] == img[x, y])
                }
            }
        }
        // Clockwise quarter turn: the top row becomes the right column.
        #expect(img.oriented(by: FrameTransform(rotation: .quarter, mirrored: false)).pixels == [4, 1, 5, 2, 6, 3])
    }
}
