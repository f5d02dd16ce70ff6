import ScandBarPattern
import ScandCore

/// Finds every code in a still image, where finding every code matters more than time (`scand scan`): its
/// passes over the rect of interest and crops turned upright around patches that look like codes
/// (`CodeCandidates`), run isolated, merged into one list of symbols in full-image pixels.
///
/// zxing-cpp 3.1's defaults read rotated, mirrored, off-centre and downscaled codes in one pass, and
/// inverted matrix codes (1.4 needed a pass for each of those faults), so a still gets that pass with EAN
/// add-ons read; then an inverted copy for the formats zxing's own inversion leaves out (linear codes and
/// PDF417, measured: `HandledFaultsTests`), and, in a small image where nothing was read, the EAN/UPC formats
/// enlarged twice. Then crops turned upright around patches that look like codes, for tilted codes zxing's
/// detectors still miss: read for the matrix and the linear formats, and enlarged twice for the linear ones
/// around small patches that nothing read. A weak format's read that only a resampled pass made needs a
/// second opinion, and EAN/UPC reads get a second look for their add-ons (`StillSecondLook`); reads that
/// disagree on the same bars are settled by their scan lines (`StillDisagreement`).
public struct StillImageDecoder: Sendable {
    public var formats: BarcodeFormats
    public var decoder: ZXingDecoder
    public var merger = DetectionMerger()

    /// The still passes, in the order they run.
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

    public init(formats: BarcodeFormats = .all, decoder: ZXingDecoder = ZXingDecoder()) {
        self.formats = formats
        self.decoder = decoder
    }

    public func decode(_ image: LumaImage, regionOfInterest roi: NormalizedRect = .full) -> DecodeReport {
        let region = roi.pixelRect(width: image.width, height: image.height)
        // zxing's defaults first; then the other passes, with crops only around patches that read nothing so far
        // (most photos' codes are read by the first pass: cropping around them again is wasted).
        var report = decoder.decode(image, passes: [firstPass(region: region)])
        var finder = CodeCandidates()
        finder.limit = 4
        let found = report.detections
        let candidates = image.withView {
            finder.find(in: $0, region: region, excluding: { bounds in found.contains { bounds.contains($0.corners.center) } })
        }
        let linear = CodeCandidates.linearPasses(
            for: candidates, region: region, formats: formats, role: .still(.uprightLinear), label: "still upright linear")
        let more = decoder.decode(
            image,
            passes: followUps(region: region, found: found)
                + CodeCandidates.passes(for: candidates, region: region, formats: formats, label: "candidate") + linear)
        // Small patches that still read nothing, or only a payload without a check that wants a second read: enlarged
        // for the linear formats.
        let read = found + StillSecondLook.confirmed(more.found).map(\.detection)
        let unread = candidates.filter { c in !read.contains { c.bounds.contains($0.corners.center) } }
        let enlarged = CodeCandidates.linearPasses(
            for: unread, region: region, formats: formats, upscale: 2, role: .still(.enlargedLinear), label: "still enlarged linear")
        report += more
        report += decoder.decode(image, passes: enlarged)
        // A second look at the reads that want one: reads of weak formats without a second opinion, EAN/UPC
        // reads without an add-on, and reads that disagree with another on the same bars.
        let merged = merger.merge(report.found, detection: \.detection).map(\.detection)
        let disputed = StillDisagreement.disputes(merged, in: image).map { (merged[$0.0], merged[$0.1]) }
        report += decoder.decode(
            image,
            passes: StillSecondLook.passes(
                for: merger.merge(report.found, detection: \.detection), raw: report.found, disputed: disputed, in: image, region: region,
                formats: formats))
        // A UPC-E read inside an EAN-13's bars (its left half) is no code of its own.
        let raw = report.found
        report.found = StillDisagreement.resolve(merger.merge(StillSecondLook.confirmed(raw), detection: \.detection), raw: raw, in: image)
            .filter { f in QuietZone.isClear(f.detection, width: image.width, height: image.height) { image[$0, $1] } }
        report.found = Self.heldAgainstTheirBars(report.found, in: image)
        return report
    }

    /// Each EAN/UPC read held against its bars in the image (`BarPatternCheck`), as the live decoder holds them: a
    /// main number its bars contradict is no read, and an add-on they contradict is left off (the main number
    /// alone is half the code, not a wrong one). Bars that cannot be measured leave the read as it is.
    static func heldAgainstTheirBars(_ found: [DecodeReport.Found], in image: LumaImage) -> [DecodeReport.Found] {
        image.withView { luma in
            found.compactMap { f in
                guard ScanLineEvidence.patternChecked.contains(f.detection.format) else { return f }
                let verdict = BarPatternCheck.verdict(f.detection, in: luma)
                if verdict.main == true { return nil }
                guard verdict.addOn == true, let addOn = f.detection.addOn else { return f }
                var g = f
                g.detection.bytes.removeLast(addOn.utf8.count)
                g.detection.text = String(decoding: g.detection.bytes, as: UTF8.self)
                return g
            }
        }
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
