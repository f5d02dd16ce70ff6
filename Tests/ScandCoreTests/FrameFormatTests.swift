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

    @Test func yuyvFramesCarryTheirLuma() {
        let luma = LumaImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let frame = Frame.yuyv(luma)
        #expect(frame.bytes == [1, 128, 2, 128, 3, 128, 4, 128, 5, 128, 6, 128])
        #expect(frame.luma() == luma)
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
