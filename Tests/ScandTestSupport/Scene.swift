import Foundation
import ScandCapture
import ScandCore
import ScandDecoding

/// Generated test images: zxing's writer draws the symbol, the scene places it on a grey-white page.
public enum Scene {
    public static func symbol(_ format: BarcodeFormat, _ text: String, module: Int = 4) -> LumaImage {
        try! SymbolWriter.render(format, text: text, moduleSize: module)
    }

    /// A `width`×`height` light page with each symbol centred at its point, rotated by its angle.
    public static func page(
        width: Int = 1280, height: Int = 720, background: UInt8 = 235,
        _ items: [(LumaImage, x: Double, y: Double, degrees: Double)]
    ) -> LumaImage {
        var page = LumaImage(width: width, height: height, fill: background)
        for item in items { page.paste(item.0, centerX: item.x, centerY: item.y, degrees: item.degrees) }
        return page
    }

    /// A `width`×`height` page with each symbol's centre at its point, pasted pixel for pixel (no resampling).
    public static func page(width: Int, height: Int, background: UInt8, centred items: [(LumaImage, x: Int, y: Int)]) -> LumaImage {
        var page = LumaImage(width: width, height: height, fill: background)
        for (symbol, x, y) in items { page.paste(symbol, x: x - symbol.width / 2, y: y - symbol.height / 2) }
        return page
    }

    /// Writes `pages` as a YUYV recording, frame i stamped at i × `gapMicroseconds`, and returns `path`.
    @discardableResult
    public static func record(_ pages: some Sequence<LumaImage>, to path: String, gapMicroseconds: UInt64) throws -> String {
        try record(pages.enumerated().lazy.map { (page: $0.element, microseconds: UInt64($0.offset) * gapMicroseconds) }, to: path)
    }

    /// Writes each page stamped at its time as a YUYV recording and returns `path`.
    @discardableResult
    public static func record(_ frames: some Sequence<(page: LumaImage, microseconds: UInt64)>, to path: String) throws -> String {
        var writer: Recording.Writer?
        for (i, frame) in frames.enumerated() {
            let page = frame.page
            if writer == nil { writer = try Recording.Writer(path: path, format: .packed(.yuyv, width: page.width, height: page.height)) }
            try writer?.append(Frame.yuyv(page, sequence: UInt64(i), timestampMicroseconds: frame.microseconds))
        }
        try writer?.finish()
        return path
    }

    /// A till's recording: `pages` at 30 fps after `leadIn` seconds and before `tail` seconds of `blank` at
    /// 4 fps. A quiet camera at 4 fps costs the disk an eighth of one at 30 (a minute of 640×360 YUYV at 30 fps
    /// is 830 MB, and a test run's temporary directory holds every test's recordings).
    @discardableResult
    public static func record(pages: [LumaImage], leadIn: Double, tail: Double, blank: LumaImage, to path: String) throws -> String {
        let quietGap: UInt64 = 250_000, gap: UInt64 = 33_333
        let leadFrames = Int((leadIn * 4).rounded(.up)), tailFrames = Int((tail * 4).rounded(.up))
        var frames: [(page: LumaImage, microseconds: UInt64)] = (0..<leadFrames).map { (blank, UInt64($0) * quietGap) }
        let start = UInt64(leadFrames) * quietGap
        frames += pages.enumerated().map { ($0.element, start + UInt64($0.offset) * gap) }
        let end = start + UInt64(pages.count) * gap
        frames += (0..<tailFrames).map { (blank, end + UInt64($0) * quietGap) }
        return try record(frames, to: path)
    }

    /// Bars that are no code (a striped print: bars and spaces of 2–5 px, seeded) from `x` for `width` px and
    /// from `y` for `height`, dark on `page`: the linear localizer finds them, and no pass reads anything.
    public static func stripes(on page: inout LumaImage, x: Int, y: Int, width: Int, height: Int) {
        var x0 = x, seed: UInt64 = 3
        while x0 < x + width {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let bar = 2 + Int(seed >> 62), space = 2 + Int((seed >> 60) & 3)
            for row in y..<(y + height) { for dx in 0..<bar { page[x0 + dx, row] = 40 } }
            x0 += bar + space
        }
    }

    /// `image` as a webcam sees it moving `length` px along its rows within the exposure (each pixel the mean
    /// of the `length` along its row, centred, the pixels at either end weighed by the fraction they are
    /// passed: a motion is rarely a whole number of pixels), with seeded sensor noise of ±6 levels on top.
    public static func smeared(_ image: LumaImage, length: Double, seed: UInt32 = 7) -> LumaImage {
        // The box's weights over offsets -reach...reach: 1 inside, the fraction at the two ends.
        let reach = Int(((length - 1) / 2).rounded(.up))
        let weights = (-reach...reach).map { i in min(1, max(0, (length + 1) / 2 - Double(abs(i)))) }
        let total = weights.reduce(0, +)
        var out = image
        var rng = seed
        for y in 0..<image.height {
            for x in 0..<image.width {
                var sum = 0.0
                for (k, w) in weights.enumerated() where w > 0 {
                    sum += w * Double(image[min(max(x + k - reach, 0), image.width - 1), y])
                }
                rng = rng &* 1_103_515_245 &+ 12345
                out[x, y] = UInt8(clamping: Int((sum / total).rounded()) - 6 + Int(rng >> 16) % 13)
            }
        }
        return out
    }

    /// `image` out of focus: blurred by a Gaussian of `sigma` px (rows, then columns, edges clamped), with
    /// seeded sensor noise of ±6 levels on top.
    public static func defocused(_ image: LumaImage, sigma: Double, seed: UInt32 = 7) -> LumaImage {
        let reach = Int((3 * sigma).rounded(.up))
        let weights = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        func pass(_ source: [Double], along rows: Bool) -> [Double] {
            var out = source
            for y in 0..<image.height {
                for x in 0..<image.width {
                    var sum = 0.0
                    for (i, w) in weights.enumerated() {
                        let (sx, sy) =
                            rows
                            ? (min(max(x + i - reach, 0), image.width - 1), y) : (x, min(max(y + i - reach, 0), image.height - 1))
                        sum += w * source[sy * image.width + sx]
                    }
                    out[y * image.width + x] = sum / total
                }
            }
            return out
        }
        let blurred = pass(pass(image.pixels.map(Double.init), along: true), along: false)
        var out = image
        var rng = seed
        for i in blurred.indices {
            rng = rng &* 1_103_515_245 &+ 12345
            out.pixels[i] = UInt8(clamping: Int(blurred[i].rounded()) - 6 + Int(rng >> 16) % 13)
        }
        return out
    }

    /// `image` under a glare spot at (`x`, `y`): each pixel lifted towards white by `strength` times a
    /// Gaussian of `radius` px, as a lamp's reflection on a glossy label.
    public static func glared(_ image: LumaImage, x cx: Double, y cy: Double, radius: Double, strength: Double) -> LumaImage {
        var out = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                let d2 = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)) / (radius * radius)
                let g = strength * exp(-d2 / 2)
                out[x, y] = UInt8(clamping: Int((Double(image[x, y]) + (250 - Double(image[x, y])) * g).rounded()))
            }
        }
        return out
    }

    public static func full(_ image: LumaImage) -> PixelRect { PixelRect(x: 0, y: 0, width: image.width, height: image.height) }

    /// One plain pass: what zxing does without scand's handling (no pyramid, no inversion).
    public static func plainPass(_ image: LumaImage, _ formats: BarcodeFormats) -> DecodePass {
        DecodePass(label: "plain", crop: full(image), formats: formats)
    }

    /// zxing-cpp's default options, as `ReadBarcodes(image)` uses them.
    public static func defaultHintsPass(_ image: LumaImage) -> DecodePass {
        .zxingDefaults(width: image.width, height: image.height)
    }

    /// One payload per format, each number its own: a DataBar and a DataBar Stacked of one number are one code
    /// to the tracker (`BarcodeFormat.layouts`), so a scene showing both would report only one.
    public static let samplePayloads: [BarcodeFormat: String] = [
        .aztec: "Aztec scand 1", .codabar: "A40156B", .code39: "SCAND-39", .code93: "SCAND93",
        .code128: "scand-128 Ok", .dataMatrix: "DataMatrix scand", .ean8: "96385074", .ean13: "4006381333931",
        .itf: "00123456789012", .pdf417: "PDF417 scand payload", .qrCode: "https://example.org/scand?q=1",
        .upcA: "036000291452", .upcE: "01234565", .maxiCode: "MaxiCode scand", .microQRCode: "SCAND42",
        .rmqrCode: "rMQR scand", .dataBar: "09501101530003", .dataBarLimited: "00614141999996",
        .dataBarStacked: "09506000134352", .dataBarExpanded: "(01)09501101530003(10)AB12",
        .dataBarExpandedStacked: "(01)09501101530003(10)AB12(17)250131"
    ]
}
