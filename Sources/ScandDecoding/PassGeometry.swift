import Foundation
import ScandCore

/// Where a pass's pixels come from: one affine map from pass pixels to image pixels. The shim samples a
/// turned or enlarged pass through it, and the corners zxing reports in pass pixels go back to the image
/// through it, so the geometry of a pass is defined here only.
struct PassGeometry: Equatable {
    /// Size of the image zxing reads.
    var width: Int
    var height: Int
    /// Pass pixel (x, y) → image point (m[0] x + m[1] y + m[2], m[3] x + m[4] y + m[5]).
    var map: [Double]
    /// The shim samples through `map` bilinearly; otherwise it box-downscales and mirrors the crop, which the
    /// map then describes (each pass pixel at the centre of its box).
    var resampled: Bool

    init(_ pass: DecodePass) {
        // The shim refuses a scale outside 1...8; max keeps this arithmetic defined until then.
        let crop = pass.crop, scale = Double(max(1, pass.scale))
        let centidegrees = (pass.rotationDegrees * 100).rounded()
        resampled = centidegrees != 0 || pass.upscale > 1
        width = crop.width * max(1, pass.upscale) / max(1, pass.scale)
        height = crop.height * max(1, pass.upscale) / max(1, pass.scale)
        if resampled {
            // The crop's centre + R(angle)(q - pass centre) * scale / upscale.
            let a = centidegrees * .pi / 18000, c = cos(a), s = sin(a), k = scale / Double(max(1, pass.upscale))
            let cx = Double(crop.x) + Double(crop.width - 1) / 2, cy = Double(crop.y) + Double(crop.height - 1) / 2
            let px = Double(width - 1) / 2, py = Double(height - 1) / 2
            map = [
                c * k, -s * k, cx - c * k * px + s * k * py,
                s * k, c * k, cy - s * k * px - c * k * py
            ]
        } else {
            let centre = (scale - 1) / 2
            let x0 = Double(crop.x) + centre, y0 = Double(crop.y) + centre
            map = pass.mirror ? [-scale, 0, x0 + Double(width - 1) * scale, 0, scale, y0] : [scale, 0, x0, 0, scale, y0]
        }
    }

    /// A point in pass pixels → the same point in image pixels.
    func sourcePoint(_ p: Point) -> Point {
        Point(map[0] * p.x + map[1] * p.y + map[2], map[3] * p.x + map[4] * p.y + map[5])
    }

    /// Why the shim could not sample this pass sensibly, or nil.
    static func problem(_ pass: DecodePass) -> String? {
        if !((pass.rotationDegrees * 100).rounded().magnitude <= 9000) { return "rotation must be -90...90 degrees" }
        if (pass.rotationDegrees * 100).rounded() != 0 && pass.mirror { return "rotation only without mirror" }
        if pass.upscale < 0 || pass.upscale > 4 || (pass.upscale > 1 && (pass.scale != 1 || pass.mirror)) {
            return "upscale must be 0...4, with scale 1 and no mirror"
        }
        if pass.upscale > 1 && pass.crop.width * pass.crop.height * pass.upscale * pass.upscale > 1 << 24 {
            return "upscaled crop over 16 megapixels"
        }
        if pass.unsmear != 0 && !(2...64).contains(pass.unsmear) { return "unsmear must be 0 or 2...64" }
        if pass.defocus != 0 && !(0.5...20).contains(pass.defocus) { return "defocus must be 0 or 0.5...20 pixels" }
        return nil
    }
}
