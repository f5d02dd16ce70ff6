import Testing
import ScandCore

/// The focus figure rises as the rect of interest's edges get crisp.
@Suite struct FocusMeasureTests {
    /// Black and white stripes, box-blurred over `radius` pixels each way.
    static func stripes(blur radius: Int) -> Frame {
        let w = 80, h = 40
        let sharp = (0..<w).map { x in (x / 5) % 2 == 0 ? 30 : 220 }
        var image = LumaImage(width: w, height: h, fill: 0)
        for x in 0..<w {
            let window = max(0, x - radius)...min(w - 1, x + radius)
            let v = window.map { sharp[$0] }.reduce(0, +) / window.count
            for y in 0..<h { image.pixels[y * w + x] = UInt8(v) }
        }
        return Frame.yuyv(image)
    }

    @Test func sharperIsHigher() throws {
        let all = PixelRect(x: 0, y: 0, width: 80, height: 40)
        let figures = try [0, 1, 2, 4].map { try #require(FocusMeasure.sharpness(of: Self.stripes(blur: $0), in: all)) }
        #expect(figures == figures.sorted(by: >) && figures[0] > 4 * figures[3], "\(figures)")
        // A flat rect has none; a rect under 4x4 pixels or outside the frame gives no figure.
        #expect(FocusMeasure.sharpness(of: Frame.yuyv(LumaImage(width: 8, height: 8, fill: 99)), in: PixelRect(x: 0, y: 0, width: 8, height: 8)) == 0)
        #expect(FocusMeasure.sharpness(of: Self.stripes(blur: 0), in: PixelRect(x: 78, y: 0, width: 10, height: 10)) == nil)
    }
}
