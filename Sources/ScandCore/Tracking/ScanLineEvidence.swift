/// How much one frame's read of a code vouches for its number (docs/architecture.md, "Why scand trusts a
/// SCAN"). A hand laser scanner's redundancy counts independent scans; scand counts looks: a decoded frame
/// is one (new sensor noise, a new pose), and so is a read of the same frame on scan lines that share no
/// pixels with another's (a band apart across the bars). Rows of one group of agreeing lines are one look,
/// whatever zxing's line count: neighbouring rows see the same print defect and the same blur. A read made
/// from pixels the decoder invented (a deblurring guess, an enlarged crop) or from modules under 2.5 px (where
/// half a pixel of phase turns a narrow bar into a wide one) is half a look. The tracker sums them in half-looks
/// (`units`) and compares the sum with `TrackerSettings.unitsNeeded`.
public enum ScanLineEvidence {
    /// How far apart across the bars (in pixels) the centres of two reads of one frame must lie to be two looks:
    /// a few blur widths of a webcam's image, so that they are not one line's neighbours seeing the same pixels.
    public static let spread = 16.0
    /// Modules narrower than this (pixels) make a read half a look.
    public static let smallModule = 2.5

    /// Formats whose bars `BarPatternCheck` holds a read against: one of their numbers is scanned only when a
    /// frame's bars agreed with it.
    public static let patternChecked: Set<BarcodeFormat> = [.ean13, .upcA, .ean8, .upcE]

    /// Formats whose own check lets a wrong number through too often to trust one read: a mod-10 check digit
    /// passes one random error in ten (EAN/UPC and their add-ons, DataBar, ITF-14), and Code 39, Codabar, ITF
    /// and Code 93 carry none that zxing enforces, or a weak one.
    public static let weakCheck: Set<BarcodeFormat> = [
        .ean13, .ean8, .upcA, .upcE, .itf, .code39, .codabar, .code93, .dataBar, .dataBarLimited, .dataBarStacked,
        .dataBarExpanded, .dataBarExpandedStacked
    ]

    /// Whole looks one merged read of a frame is worth: 1, or 2 when an EAN/UPC number (not UPC-E, whose check
    /// hides in a parity pattern) was read on bands that share no pixels. Formats without a check digit count
    /// frames only: a striped surface gives the same wrong read on every line.
    public static func looks(_ d: Detection) -> Int {
        guard d.format.mainNumberLength != nil, d.format != .upcE else { return 1 }
        return min(2, max(1, d.agreeingReads))
    }

    /// Formats whose codewords carry Reed–Solomon correction (PDF417's and Micro QR's only at the levels that
    /// keep enough of it: `hasWeakErrorCorrection`).
    public static let reedSolomon: Set<BarcodeFormat> = [.qrCode, .microQRCode, .rmqrCode, .aztec, .dataMatrix, .maxiCode, .pdf417]

    /// Error correction too weak to trust one read: PDF417 levels 0–2 (2 to 8 correction codewords, below
    /// the specification's minimum for all but the smallest symbols; zxing's PDF417 reader also tries up to
    /// 100 guesses for ambiguous codewords, and a weak level lets a wrong guess pass) and Micro QR level L.
    /// `ecLevel` is what zxing reports; the count of corrected errors is not carried. QR Model 2 at L keeps at
    /// least 7 correction codewords per block and a BCH-protected format: not slowed down.
    public static func hasWeakErrorCorrection(_ d: Detection) -> Bool {
        switch d.format {
        case .pdf417: Int(d.ecLevel).map { $0 <= 2 } ?? false
        case .microQRCode: d.ecLevel == "L"
        default: false
        }
    }

    /// Whether `d`'s own Reed–Solomon codewords vouch for its number, whatever sampled its modules: a wrong
    /// module from an enlarged crop's interpolation is one more codeword error for the correction to find or
    /// refuse, not a wrong number that passes (as a bar moved by half a pixel passes a mod-10 check digit one
    /// time in ten). Such a read is a whole look however it was made.
    public static func vouchesForItself(_ d: Detection) -> Bool {
        reedSolomon.contains(d.format) && !hasWeakErrorCorrection(d)
    }

    /// Half-looks one merged read of a frame is worth (`looks`, halved for a reconstructed or small read, unless
    /// its Reed–Solomon codewords vouch for it: `vouchesForItself`). A read its own bars contradict
    /// (`Detection.barsAgree` false) is worth as much against its number.
    public static func units(_ d: Detection) -> Int {
        guard !vouchesForItself(d) else { return 2 }
        return looks(d) * (d.reconstructed || hasSmallModules(d) ? 1 : 2)
    }

    /// Whether a linear code's modules are under `smallModule` pixels: its read extent along the bars over the
    /// modules an EAN/UPC (and its add-on) spans. Other formats have no fixed module count: never small.
    public static func hasSmallModules(_ d: Detection) -> Bool {
        let modules: Double
        switch d.format {
        case .ean13, .upcA: modules = 95
        case .ean8: modules = 67
        case .upcE: modules = 51
        default: return false
        }
        let addOn = d.addOn.map { $0.count == 2 ? 29.0 : 56.0 } ?? 0
        return BarsSpan(d.corners).length / (modules + addOn) < smallModule
    }

    /// How many of `reads`, one code's reads of one image on the same bars, are independent: the most of
    /// them whose scan lines do not overlap across the bars and whose centres lie `spread` apart (whichever
    /// pass read them: the same lines read twice are one opinion), reconstructed ones left out (two guesses of
    /// one band are one band), or what one of them already carries; at least 1 when there are reads.
    public static func independentReads(_ reads: [Detection]) -> Int {
        guard let first = reads.first else { return 0 }
        let plain = reads.filter { !$0.reconstructed }
        let spans = plain.map { BarsSpan($0.corners, axisOf: first.corners) }.sorted { $0.top + $0.bottom < $1.top + $1.bottom }
        var count = 0
        var last: BarsSpan?
        for s in spans {
            if let l = last, s.top <= l.bottom || (s.top + s.bottom - l.top - l.bottom) / 2 < spread { continue }
            count += 1
            last = s
        }
        return max(1, count, plain.map(\.agreeingReads).max() ?? 1)
    }

    /// Whole looks separate reads of one code (or of its add-on) in one frame are worth together: the best of
    /// them, or two when independent ones agree (not for UPC-E).
    public static func looks(of reads: [Detection]) -> Int {
        let best = reads.map(looks).max() ?? 0
        guard let first = reads.first, first.format.mainNumberLength != nil, first.format != .upcE else { return best }
        return max(best, min(2, independentReads(reads)))
    }
}
