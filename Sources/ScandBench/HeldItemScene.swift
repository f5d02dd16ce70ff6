import Foundation
import ScandCapture
import ScandCore
import ScandDecoding

/// An item held up to a 720p kiosk camera at 30 fps: a second of empty counter, the item held still by a hand
/// (±6 px of jitter and a wobble of a degree), then a second of empty counter again. Every frame has its own
/// blur (0.6–1.5 px) and sensor noise, as the measurements had. Seeded: the same frames every run.
struct HeldItemScene {
    static let width = 1280, height = 720
    static let leadIn = 30, tail = 30
    static let frameMicroseconds: UInt64 = 33_333

    var pages: [LumaImage] = []
    /// Index of the first frame with the item in view.
    var firstHeld = leadIn
    var heldFrames: Int
    var expected: String

    init(item: TillBench.Item, heldFrames: Int, seed: UInt64) throws {
        self.heldFrames = heldFrames
        expected = item.expected
        var rng = Xorshift(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(rng.next() % 10_001) / 10_000 * (range.upperBound - range.lowerBound)
        }
        let symbol = try SymbolWriter.render(item.format, text: item.written, moduleSize: item.moduleSize, barHeight: item.barHeight)
        // Print on a label: dark ink at 40, the label's white at 225.
        let label = LumaImage(width: symbol.width, height: symbol.height, pixels: symbol.pixels.map { UInt8(40 + Int($0) * 185 / 255) })
        let tilt = uniform(-4...4)
        let counter = Self.counter()
        for f in 0..<(Self.leadIn + heldFrames + Self.tail) {
            var page = counter
            if f >= Self.leadIn && f < Self.leadIn + heldFrames {
                let cx = Double(Self.width) / 2 + uniform(-6...6), cy = Double(Self.height) / 2 + uniform(-6...6)
                page.paste(label, centerX: cx, centerY: cy, degrees: tilt + uniform(-1...1))
                let reach = Int((Double(label.width * label.width + label.height * label.height)).squareRoot() / 2) + 12
                Self.blur(&page, sigma: uniform(0.6...1.5), around: (Int(cx), Int(cy)), reach: reach)
            }
            for i in page.pixels.indices {
                // Sensor noise: a sum of three uniforms, about ±4 grey levels.
                let n = Int(rng.next() % 7) + Int(rng.next() % 7) + Int(rng.next() % 7) - 9
                page.pixels[i] = UInt8(clamping: Int(page.pixels[i]) + n)
            }
            pages.append(page)
        }
    }

    /// A grey counter, lighter towards the middle.
    static func counter() -> LumaImage {
        var page = LumaImage(width: width, height: height, fill: 0)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x - width / 2) / Double(width), dy = Double(y - height / 2) / Double(height)
                page[x, y] = UInt8(150 - Int(80 * (dx * dx + dy * dy)))
            }
        }
        return page
    }

    /// Gaussian blur of the square `reach` around `centre`, rows then columns.
    static func blur(_ image: inout LumaImage, sigma: Double, around centre: (Int, Int), reach: Int) {
        let radius = Int((3 * sigma).rounded(.up))
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / sum }
        let x0 = max(0, centre.0 - reach), x1 = min(image.width - 1, centre.0 + reach)
        let y0 = max(0, centre.1 - reach), y1 = min(image.height - 1, centre.1 + reach)
        guard x0 < x1, y0 < y1 else { return }
        for horizontal in [true, false] {
            let source = image
            for y in y0...y1 {
                for x in x0...x1 {
                    var v = 0.0
                    for k in -radius...radius {
                        let sx = horizontal ? min(max(x + k, 0), image.width - 1) : x
                        let sy = horizontal ? y : min(max(y + k, 0), image.height - 1)
                        v += kernel[k + radius] * Double(source[sx, sy])
                    }
                    image[x, y] = UInt8(clamping: Int(v.rounded()))
                }
            }
        }
    }

    func record(to path: String) throws {
        let writer = try Recording.Writer(path: path, format: .packed(.yuyv, width: Self.width, height: Self.height))
        for (i, page) in pages.enumerated() {
            try writer.append(Frame.yuyv(page, sequence: UInt64(i), timestampMicroseconds: UInt64(i) * Self.frameMicroseconds))
        }
        try writer.finish()
    }

    /// The first frame that zxing-cpp with its default options, or scand's live decoder on that frame alone,
    /// reads the item from: where a reader could first have reported it.
    func firstDecodableFrame() -> Int? {
        let zxing = ZXingDecoder()
        let live = ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker())
        for f in firstHeld..<(firstHeld + heldFrames) {
            let page = pages[f]
            let defaults = zxing.decode(page, passes: [.zxingDefaults(width: page.width, height: page.height)]).detections
            if defaults.contains(where: { $0.text == expected }) { return f }
            var decoder = FrameDecoder(decoder: live)
            decoder.extraPassBudgetMilliseconds = 0
            if let read = try? decoder.decode(Frame.yuyv(page)).detections, read.contains(where: { $0.text == expected }) { return f }
        }
        return nil
    }
}
