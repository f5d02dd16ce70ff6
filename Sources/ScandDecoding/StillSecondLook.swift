import ScandCore

/// The still strategy's second opinion. zxing's check for EAN/UPC is one mod-10 digit, which passes one
/// random misread in ten, and Codabar, Code 39 and ITF have none: a read of those weak formats that only a
/// resampled pass made (enlarged, or a crop turned upright) is kept only when another read agrees (another
/// pass or crop, or, for EAN/UPC, its own scan lines spread over the bars: `ScanLineEvidence`). Reads that
/// want a second opinion, EAN/UPC reads without an add-on (the add-on's bars may lie beside them) and reads
/// that disagree with another on the same bars get a second look: a crop around their bars on a grid of its
/// own, turned by the read's own angle, enlarged where the code is small.
enum StillSecondLook {
    /// Formats whose check lets a misread through: EAN/UPC (one mod-10 digit; UPC-E's hides in a parity
    /// pattern) and the formats without a check that zxing verifies.
    static let weak = StillImageDecoder.retail.union(StillImageDecoder.unchecked)

    /// Codes this long or shorter (image pixels along the bars) are read enlarged twice in a second look: an
    /// EAN's 95 modules then span about 3 px or less each, where zxing's edge finding starts to fail once the
    /// crop is resampled (measured: the photos' 2 px EANs read enlarged).
    static let enlargeUpTo = 300.0

    /// Reads made only by a resampled pass: every still pass but zxing's defaults and the inverted copy.
    static func isResampled(_ role: DecodePass.Role) -> Bool {
        switch role {
        case .still(.defaults), .still(.inverted): false
        case .still: true
        default: false
        }
    }

    /// Whether `f` needs another opinion and has none among `found`.
    static func wantsOpinion(_ f: DecodeReport.Found, among found: [DecodeReport.Found]) -> Bool {
        let d = f.detection
        guard isResampled(f.role), weak.contains(d.format) else { return false }
        if StillImageDecoder.retail.contains(d.format), vouchesForItself(d) { return false }
        return !found.contains { g in
            g.detection.format == d.format && g.detection.mainBytes == d.mainBytes
                && (g.role != f.role || g.detection.corners != d.corners)
        }
    }

    /// A still EAN/UPC read on bands apart (`ScanLineEvidence.looks`), or on many agreeing lines spread across its
    /// bars (8 lines over 16 px: more than a print defect covers), needs no second look of its own.
    static func vouchesForItself(_ d: Detection) -> Bool {
        let bars = BarsSpan(d.corners, axisOf: d.corners)
        return ScanLineEvidence.looks(d) >= 2 || (d.lineCount >= 8 && bars.bottom - bars.top >= ScanLineEvidence.spread)
    }

    /// `found` without the reads that want another opinion and have none.
    static func confirmed(_ found: [DecodeReport.Found]) -> [DecodeReport.Found] {
        found.filter { !wantsOpinion($0, among: found) }
    }

    /// The second looks `found` (already merged) asks for: around each read that wants an opinion and each
    /// EAN/UPC read without an add-on; and for each pair of `disputed` reads, one over both of their bars (all
    /// of the code, whose scan lines then say which is right).
    static func passes(
        for merged: [DecodeReport.Found], raw: [DecodeReport.Found], disputed: [(Detection, Detection)], in image: LumaImage, region: PixelRect,
        formats: BarcodeFormats
    ) -> [DecodePass] {
        let settling = disputed.compactMap { a, b -> DecodePass? in
            var bars = BarsSpan.measured(a.corners, in: image)
            let other = BarsSpan(b.corners, along: bars.along)
            (bars.start, bars.end) = (min(bars.start, other.start), max(bars.end, other.end))
            (bars.top, bars.bottom) = (min(bars.top, other.top), max(bars.bottom, other.bottom))
            // Enlarged twice whatever its size: the disputed reads came from the image's own grid (measured: a
            // photo's EAN-13 read two ways on five and seven lines reads right on 159 enlarged, and alike at 1).
            return bars.pass(
                lengths: 1.4, height: bars.bottom - bars.top + 24, upscale: 2, region: region,
                role: .still(.secondLook), formats: BarcodeFormats([a.format, b.format]).intersection(formats))
        }
        return settling
            + merged.compactMap { f in
                let d = f.detection
                guard d.format.isLinear else { return nil }
                let retail = StillImageDecoder.retail.contains(d.format) && d.addOn == nil
                guard retail || wantsOpinion(f, among: raw) else { return nil }
                let bars = BarsSpan.measured(d.corners, in: image)
                guard bars.length >= 8 else { return nil }
                let upscale = bars.length <= enlargeUpTo ? 2 : 1
                let height = max(bars.bottom - bars.top + 24, bars.length * 0.8)
                // EAN/UPC: from a little before the code to past an add-on's end (at most 12 + 47 modules after
                // the 95 of the code, about 0.62 of its length).
                return retail
                    ? bars.pass(
                        lengths: 1.9, height: height, ahead: 0.3, upscale: upscale, region: region, role: .still(.secondLook),
                        formats: BarcodeFormats(d.format).intersection(formats))
                    : bars.pass(
                        lengths: 1.4, height: height, upscale: upscale, region: region, role: .still(.secondLook),
                        formats: BarcodeFormats(d.format).intersection(formats))
            }
    }
}
