import ScandCore
import ScandImageShim

/// Draws each decoded symbol's outline in green with a label: what `scand scan --annotate` writes.
public struct Annotator: Sendable {
    public var lineWidth: Int
    public var fontScale: Int

    public init(lineWidth: Int? = nil, fontScale: Int? = nil, imageWidth: Int = 1000) {
        self.lineWidth = lineWidth ?? max(2, imageWidth / 400)
        self.fontScale = fontScale ?? max(1, imageWidth / 500)
    }

    public static let green: (UInt8, UInt8, UInt8) = (0, 220, 0)

    public func annotate(_ image: RGBImage, _ detections: [Detection]) -> RGBImage {
        var canvas = image
        for d in detections {
            let c = d.corners.corners
            for i in 0..<4 { drawLine(&canvas, c[i], c[(i + 1) % 4]) }
            let b = d.corners.bounds
            drawLabel(&canvas, Self.label(for: d), x: Int(b.minX), y: Int(b.maxY) + lineWidth + 2)
        }
        return canvas
    }

    /// "FORMAT: text", printable ASCII only and at most 48 characters: the label is a drawing, not data.
    public static func label(for d: Detection) -> String {
        var text = String(d.text.unicodeScalars.map { $0.value >= 32 && $0.value < 127 ? Character($0) : "?" })
        if text.count > 48 { text = String(text.prefix(47)) + "~" }
        return "\(d.format.name): \(text)"
    }

    func drawLine(_ img: inout RGBImage, _ a: Point, _ b: Point) {
        let steps = max(1, Int(a.distance(to: b).rounded(.up)))
        let r = lineWidth / 2
        for s in 0...steps {
            let t = Double(s) / Double(steps)
            let x = Int((a.x + (b.x - a.x) * t).rounded()), y = Int((a.y + (b.y - a.y) * t).rounded())
            for dy in -r...(lineWidth - 1 - r) {
                for dx in -r...(lineWidth - 1 - r) { set(&img, x + dx, y + dy, Self.green) }
            }
        }
    }

    func drawLabel(_ img: inout RGBImage, _ text: String, x: Int, y: Int) {
        let w = Int(scand_text_width(text)) * fontScale, h = Int(scand_text_height(text)) * fontScale
        // Keep the label inside the image: above the symbol if there is no room below it.
        let lx = max(0, min(x, img.width - w - 4)), ly = y + h + 4 > img.height ? max(0, img.height - h - 4) : y
        for py in ly..<(ly + h + 4) {
            for px in lx..<(lx + w + 4) { set(&img, px, py, (0, 0, 0)) }
        }
        img.pixels.withUnsafeMutableBufferPointer { buf in
            _ = scand_draw_text(
                buf.baseAddress, Int32(img.width), Int32(img.height), Int32(img.width * 3),
                Int32(lx + 2), Int32(ly + 2), text, Int32(fontScale), Self.green.0, Self.green.1, Self.green.2)
        }
    }

    func set(_ img: inout RGBImage, _ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < img.width, y < img.height else { return }
        let i = (y * img.width + x) * 3
        img.pixels[i] = c.0
        img.pixels[i + 1] = c.1
        img.pixels[i + 2] = c.2
    }
}
