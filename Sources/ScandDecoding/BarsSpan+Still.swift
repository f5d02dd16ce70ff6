import Foundation
import ScandCore

/// A linear read's bars in a still (`BarsSpan`): its reading direction (zxing's top-left to top-right, which a
/// read turned by a pass's rotation keeps) as the code's own, and the luma profile along it. The still
/// strategy's second looks and its disagreement check work in this frame.
extension BarsSpan {
    /// The reading direction in degrees (image y downwards), -180…180.
    var degrees: Double { atan2(along.y, along.x) * 180 / .pi }

    /// The bars of the read `q` in the code's own direction. zxing reports a read's outline along its scan
    /// lines, which cross a tilted code at the scan's angle, not the code's: the code's angle (modulo 90°)
    /// comes from the image's gradients around the read (`CodeCandidates.angle`), turned to the nearest of
    /// the four directions to the scan's.
    static func measured(_ q: Quadrilateral, in image: LumaImage) -> BarsSpan {
        let scan = BarsSpan(q)
        let b = q.bounds, pad = max(8, scan.length / 8)
        let inner = PixelRect(x: 1, y: 1, width: image.width - 2, height: image.height - 2)
        let box = PixelRect(x: Int(b.minX - pad), y: Int(b.minY - pad), width: Int(b.maxX - b.minX + 2 * pad), height: Int(b.maxY - b.minY + 2 * pad))
            .intersection(inner)
        guard box.width >= 8, box.height >= 8 else { return scan }
        let (degrees, coherence) = image.withView { CodeCandidates.angle(in: $0, inside: box) }
        guard coherence > 0.2 else { return scan }
        let quarter = ((scan.degrees - degrees) / 90).rounded()
        let a = (degrees + quarter * 90) * .pi / 180
        return BarsSpan(q, along: Point(cos(a), sin(a)))
    }

    /// The pass that reads the neighbourhood of these bars again on a grid of its own: a crop centred on the
    /// bars (shifted by `ahead` lengths along the reading direction, where an add-on would be), turned back by
    /// the reading direction's angle modulo 90° so that the bars stand upright or lie flat (zxing's rotation
    /// reads the latter), `lengths` long and `height` across, in image pixels. nil when too little of it is in
    /// `region`.
    func pass(
        lengths: Double, height: Double, ahead: Double = 0, upscale: Int, region: PixelRect, role: DecodePass.Role,
        formats: BarcodeFormats
    ) -> DecodePass? {
        let long = length * lengths, centre = point((start + end) / 2 + ahead * length, middle)
        // The turn brings the reading direction to the nearest multiple of 90°: at an odd multiple the code
        // stands upright in the pass and its long side is the crop's height.
        let quarter = (degrees / 90).rounded()
        let turn = degrees - quarter * 90
        let upright = Int(quarter).isMultiple(of: 2) == false
        let w = upright ? height : long, h = upright ? long : height
        guard w.isFinite, h.isFinite, w < 1e6, h < 1e6 else { return nil }
        let crop = PixelRect(x: Int(centre.x - w / 2), y: Int(centre.y - h / 2), width: Int(w), height: Int(h)).intersection(region)
        guard crop.width >= 24, crop.height >= 24, crop.width * crop.height * upscale * upscale <= 1 << 22 else { return nil }
        var p = DecodePass(role, label: "still second look", crop: crop, formats: formats)
        p.rotationDegrees = abs(turn) >= 0.5 ? turn : 0
        p.upscale = upscale
        p.tryRotate = true
        p.tryHarder = true
        return p
    }

    /// The luma along the bars at `c` across them, from `a0` to `a1` along, in `count` samples (bilinear).
    static func profile(_ image: LumaImage, _ bars: BarsSpan, across c: Double, from a0: Double, to a1: Double, count: Int) -> [Double] {
        guard count > 1 else { return [] }
        return image.pixels.withUnsafeBufferPointer { px in
            (0..<count).map { i in
                let p = bars.point(a0 + (a1 - a0) * Double(i) / Double(count - 1), c)
                let x = min(max(p.x, 0), Double(image.width - 1)), y = min(max(p.y, 0), Double(image.height - 1))
                let x0 = min(Int(x), max(0, image.width - 2)), y0 = min(Int(y), max(0, image.height - 2))
                let x1 = min(x0 + 1, image.width - 1), y1 = min(y0 + 1, image.height - 1)
                let fx = x - Double(x0), fy = y - Double(y0)
                func v(_ x: Int, _ y: Int) -> Double { Double(px[y * image.width + x]) }
                return (v(x0, y0) * (1 - fx) + v(x1, y0) * fx) * (1 - fy) + (v(x0, y1) * (1 - fx) + v(x1, y1) * fx) * fy
            }
        }
    }
}
