import Foundation
import ScandCore
import ScandZXingShim

/// One zxing read over part of an image: which pixels (crop, scale, mirror, invert), which formats,
/// which hints. A strategy is a list of these; see `StillImageDecoder`.
public struct DecodePass: Sendable, Hashable {
    public enum Binarizer: Int32, Sendable { case localAverage = 0, globalHistogram = 1, fixedThreshold = 2, boolCast = 3 }

    /// What the pass is for: tells its reads from other passes' reads.
    public var role: Role
    /// Names the pass in logs, failure reports and benchmarks ("live linear", "still inverted", …).
    public var label: String
    public var crop: PixelRect
    /// Box downscale factor, 1…8.
    public var scale: Int = 1
    public var mirror = false
    /// Reads the crop turned back by this many degrees about its centre (-90…90; not with mirror): a
    /// matrix code lying at this angle reads upright, which zxing's PDF417, Micro QR and rMQR detectors need,
    /// and a linear code's band (`LinearLocator`) has its bars stand upright. A turned or enlarged crop is read
    /// through its map, clamped to the image: it may reach past the image's edge.
    public var rotationDegrees = 0.0
    /// Enlarges the crop this many times (1…4, scale 1 only), bilinearly: symbols with modules of a pixel or
    /// two are too fine for zxing's DataMatrix detector.
    public var upscale = 1
    public var invert = false
    /// Undoes a motion smear this many pixels of the pass's image long along its rows (0: none; 2…64): a
    /// located band, whose rows run across the bars, of a code swiped across them within the exposure.
    public var unsmear = 0
    /// Undoes a defocus, a Gaussian blur of this sigma in pixels of the pass's image, along its rows (0: none;
    /// 0.5…20), as `unsmear` does a smear (with it, both).
    public var defocus = 0.0
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
    /// Tests of the isolation only: the decoder process aborts, segfaults or hangs in this pass.
    public var injectedFault: DecoderFault = .none
    /// Run when this pass crashes or times out, in order, to recover what it would have found.
    public var fallbacks: [DecodePass] = []

    public init(_ role: Role = .adHoc, label: String, crop: PixelRect, formats: BarcodeFormats) {
        self.role = role
        self.label = label
        self.crop = crop
        self.formats = formats
    }

    /// One `ReadBarcodes` call with zxing-cpp's default options over the whole image (harder, rotated,
    /// inverted, downscaled; add-ons ignored): the baseline the benchmarks compare scand with.
    public static func zxingDefaults(width: Int, height: Int) -> DecodePass {
        var p = DecodePass(.zxingDefaults, label: "zxing defaults", crop: PixelRect(x: 0, y: 0, width: width, height: height), formats: .all)
        p.tryDownscale = true
        p.tryInvert = true
        p.eanAddOn = .ignore
        return p
    }

    /// Where the pass's pixels come from, both ways.
    var geometry: PassGeometry { PassGeometry(self) }

    /// A rough relative cost, to share one read's passes between decoder processes: the pixels read, with
    /// the matrix detectors' binarization (and zxing's pyramid on top) far dearer than a linear scan, which
    /// tryHarder makes read many more rows.
    var estimatedCost: Double {
        let g = geometry
        let pixels = Double(g.width * g.height)
        let matrix = !formats.intersection(.matrix).isEmpty
        if matrix { return pixels * (tryDownscale ? 1.6 : 1) }
        return pixels * (tryHarder ? 0.4 : 0.1)
    }

    /// The pass as the shim takes it (`PassGeometry.problem` says whether it may).
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
        p.unsmear = Int32(clamping: unsmear)
        // Tenths of a pixel; `PassGeometry.problem` has checked the range, and the shim checks it again.
        p.defocus = defocus.isFinite ? Int32(min(max((defocus * 10).rounded(), -1), 1000)) : -1
        let g = geometry
        if g.resampled {
            p.resample = 1
            p.resample_width = Int32(clamping: g.width)
            p.resample_height = Int32(clamping: g.height)
            p.sample = (g.map[0], g.map[1], g.map[2], g.map[3], g.map[4], g.map[5])
        }
        return p
    }
}
