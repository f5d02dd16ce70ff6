import Foundation
import ScandCore
import ScandZXingShim

/// One zxing read over part of an image: which pixels (crop, scale, mirror, invert), which formats,
/// which hints. A strategy is a list of these; see `StillImageStrategy`.
public struct DecodePass: Sendable, Hashable {
    public enum Binarizer: Int32, Sendable { case localAverage = 0, globalHistogram = 1, fixedThreshold = 2, boolCast = 3 }

    /// Names the pass in logs and failure reports ("linear", "tile 3/9", …).
    public var label: String
    public var crop: PixelRect
    /// Box downscale factor, 1…8.
    public var scale: Int = 1
    public var mirror = false
    /// Reads the crop turned back by this many degrees about its centre (-45…45; not with mirror): a
    /// matrix code lying at this angle reads upright, which zxing 1.4's Aztec detector needs.
    public var rotationDegrees = 0.0
    /// Enlarges the crop this many times (1…4, scale 1 only), bilinearly: symbols with modules of a pixel or
    /// two are too fine for zxing 1.4's Aztec bull's-eye search.
    public var upscale = 1
    public var invert = false
    public var formats: BarcodeFormats
    public var tryHarder = true
    public var tryRotate = true
    /// zxing's own pyramid. Off for linear formats: merging its layers trips the lineCount assert.
    public var tryDownscale = false
    /// zxing also reads the inverted image in the same pass (light-on-dark codes), at about twice the cost
    /// when nothing is found.
    public var tryInvert = false
    /// EAN-2/EAN-5 add-ons after EAN/UPC codes (books' prices, periodicals' issues).
    public var eanAddOn: EANAddOn = .read
    public var binarizer: Binarizer = .localAverage
    /// 0: every symbol (ReadBarcodes); 1: the first one (ReadBarcode).
    public var maxSymbols = 0
    /// Tests of the isolation only: the forked child aborts, segfaults or hangs in this pass.
    public var injectedFault: DecoderFault = .none
    /// Run when this pass crashes or times out, in order, to recover what it would have found.
    public var fallbacks: [DecodePass] = []

    public init(label: String, crop: PixelRect, formats: BarcodeFormats) {
        self.label = label
        self.crop = crop
        self.formats = formats
    }

    /// One `ReadBarcodes` call with zxing-cpp's default options over the whole image (harder, rotated,
    /// inverted, downscaled; add-ons ignored): the baseline the benchmarks compare scand with.
    public static func zxingDefaults(width: Int, height: Int) -> DecodePass {
        var p = DecodePass(label: "zxing defaults", crop: PixelRect(x: 0, y: 0, width: width, height: height), formats: .all)
        p.tryDownscale = true
        p.tryInvert = true
        p.eanAddOn = .ignore
        return p
    }

    /// Size of the image zxing sees.
    public var passSize: (width: Int, height: Int) { (crop.width * upscale / scale, crop.height * upscale / scale) }

    /// A rough relative cost, to share one read's passes between decoder processes: the pixels read, with
    /// the matrix detectors' binarization (and zxing's pyramid on top) far dearer than a linear scan, which
    /// tryHarder makes read many more rows.
    var estimatedCost: Double {
        let pixels = Double(passSize.width * passSize.height)
        let matrix = !formats.intersection(.matrix).isEmpty
        if matrix { return pixels * (tryDownscale ? 1.6 : 1) }
        return pixels * (tryHarder ? 0.4 : 0.1)
    }

    /// A point zxing reported in pass pixels → the same point in source-image pixels.
    public func sourcePoint(_ p: Point) -> Point {
        let centidegrees = (rotationDegrees * 100).rounded()
        if centidegrees != 0 || upscale > 1 {
            // As the shim samples: pass pixel q comes from the crop's centre + R(angle)(q - pass centre) * scale / upscale.
            let a = centidegrees * .pi / 18000, c = cos(a), s = sin(a), k = Double(scale) / Double(upscale)
            let (w, h) = passSize
            let dx = (p.x - Double(w - 1) / 2) * k, dy = (p.y - Double(h - 1) / 2) * k
            return Point(Double(crop.x) + Double(crop.width - 1) / 2 + c * dx - s * dy,
                         Double(crop.y) + Double(crop.height - 1) / 2 + s * dx + c * dy)
        }
        var x = p.x
        if mirror { x = Double(passSize.width - 1) - x }
        let s = Double(scale), centre = (s - 1) / 2
        return Point(Double(crop.x) + x * s + centre, Double(crop.y) + p.y * s + centre)
    }

    var cValue: szx_pass {
        var p = szx_pass()
        p.left = Int32(crop.x)
        p.top = Int32(crop.y)
        p.width = Int32(crop.width)
        p.height = Int32(crop.height)
        p.scale = Int32(scale)
        p.mirror = mirror ? 1 : 0
        p.invert = invert ? 1 : 0
        p.formats = Int32(formats.rawValue)
        p.try_harder = tryHarder ? 1 : 0
        p.try_rotate = tryRotate ? 1 : 0
        p.try_downscale = tryDownscale ? 1 : 0
        p.try_invert = tryInvert ? 1 : 0
        p.ean_add_on = eanAddOn.rawValue
        p.binarizer = binarizer.rawValue
        p.max_symbols = Int32(maxSymbols)
        p.is_pure = 0
        p.inject_fault = injectedFault.rawValue
        p.rotate_centidegrees = Int32((rotationDegrees * 100).rounded())
        p.upscale = Int32(upscale)
        return p
    }
}

/// What zxing does with an EAN-2/EAN-5 add-on beside an EAN/UPC code.
public enum EANAddOn: Int32, Sendable, Hashable {
    case ignore = 0, read = 1, require = 2
}

/// Faults a test can inject into an isolated pass, to prove that a crash costs only that pass.
public enum DecoderFault: Int32, Sendable, Hashable {
    case none = 0, abort = 1, segfault = 2, hang = 3
    /// Tries to open a socket and create a file, and reports what the sandbox said in `DecodeReport.notes`.
    case sandboxProbe = 4
}
