import ScandCore

/// The passes for one still image, where finding every code matters more than time (`scand scan`).
///
/// zxing-cpp 3.1's defaults read rotated, mirrored, off-centre and downscaled codes in one pass, and
/// inverted matrix codes (1.4 needed a pass for each of those faults), so a still gets that pass with EAN
/// add-ons read; then an inverted copy for the formats zxing's own inversion leaves out (linear codes and
/// PDF417, measured: `HandledFaultsTests`), and, in a small image where nothing was read, the EAN/UPC formats
/// enlarged twice. `StillImageDecoder` adds crops turned upright around patches that look like codes, for
/// tilted codes zxing's detectors still miss: read for the matrix and the linear formats, and enlarged twice
/// for the linear ones around small patches that nothing read. A weak format's read that only a resampled
/// pass made needs a second opinion, and EAN/UPC reads get a second look for their add-ons
/// (`StillSecondLook`); reads that disagree on the same bars are settled by their scan lines
/// (`StillDisagreement`).
public struct StillImageStrategy: Sendable {
    public var formats: BarcodeFormats

    /// The strategy's passes, in the order they run.
    public enum Step: Sendable, Hashable {
        /// zxing's defaults with add-ons.
        case defaults
        /// An inverted copy for the formats zxing does not invert itself.
        case inverted
        /// EAN/UPC enlarged twice in a small image where nothing was read.
        case enlarged
        /// The linear formats in a crop turned upright around a busy patch (`CodeCandidates.linearPasses`).
        case uprightLinear
        /// The same crop enlarged twice, around a small patch that no pass read.
        case enlargedLinear
        /// A crop around a read's bars turned by its own angle (`StillSecondLook`).
        case secondLook
    }

    public init(formats: BarcodeFormats = .all) {
        self.formats = formats
    }

    /// Images up to this many pixels in which zxing's defaults read nothing get the EAN/UPC formats read again
    /// enlarged twice: in a low-resolution photo a code's narrow bars can be about a pixel wide, too fine for
    /// zxing's edge finding (measured: one of the photos' EAN-13s reads only so). The enlarged read costs as
    /// much as the defaults pass over the whole photo set, so it is kept for images where nothing was read.
    public static let enlargeUpTo = 1_000_000
    /// EAN/UPC: the formats with a main number (and add-ons).
    static let retail = BarcodeFormats(BarcodeFormat.allCases.filter { $0.mainNumberLength != nil })

    /// Formats zxing's `tryInvert` does not read light-on-dark.
    public static let notSelfInverting = BarcodeFormats.linear.union(BarcodeFormats(.pdf417))

    /// Linear formats whose symbols carry no check that zxing verifies: one misread bar gives another valid
    /// payload.
    public static let unchecked = BarcodeFormats([.codabar, .code39, .itf])

    /// Reads to keep: a read of a weak format (EAN/UPC, or no check) that only a resampled pass made is kept
    /// when another pass or crop read the same main number, or, for EAN/UPC, when its own scan lines spread
    /// over the bars vouch for it (`StillSecondLook`), so that neither a texture read once as a Codabar nor
    /// an enlarged blur read once as another product is reported.
    public static func confirmed(_ found: [DecodeReport.Found]) -> [DecodeReport.Found] {
        StillSecondLook.confirmed(found)
    }

    /// zxing's defaults, with EAN add-ons read.
    public func firstPass(region: PixelRect) -> DecodePass {
        var p = DecodePass(.still(.defaults), label: "still", crop: region, formats: formats)
        p.tryDownscale = true
        p.tryInvert = true
        return p
    }

    /// The passes after the first, which found `found`: an inverted copy for the formats zxing does not invert
    /// itself, and the enlarged EAN/UPC read where nothing was found.
    public func followUps(region: PixelRect, found: [Detection]) -> [DecodePass] {
        var passes: [DecodePass] = []
        let inverting = formats.intersection(Self.notSelfInverting)
        if !inverting.isEmpty {
            var q = DecodePass(.still(.inverted), label: "still inverted", crop: region, formats: inverting)
            q.invert = true
            q.tryHarder = false
            q.tryRotate = false
            passes.append(q)
        }
        let retail = formats.intersection(Self.retail)
        if !retail.isEmpty, region.width * region.height <= Self.enlargeUpTo, found.isEmpty {
            var e = DecodePass(.still(.enlarged), label: "still enlarged", crop: region, formats: retail)
            e.upscale = 2
            passes.append(e)
        }
        return passes
    }
}
