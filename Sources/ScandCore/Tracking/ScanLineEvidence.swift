/// When one frame's read of an EAN/UPC code is worth two agreeing reads. A hand laser scanner's redundancy
/// counts scan lines, not frames; zxing reports how many of its scan lines agreed on a linear read (it needs
/// two for any read). Lines some pixels apart see independent sensor noise, so many agreeing lines spread
/// over the bars vouch for a read as two frames do, and so do reads of other passes on lines apart from them
/// (another band, an upright crop): a code a decoder sees in one frame only (a swipe, a fast hand, a busy
/// decoder) is still scanned. Only for EAN/UPC and their add-ons, whose check digit or parity pattern turns a
/// line's misread into no read: formats without a check digit (Codabar, ITF, Code 39) and short reads keep
/// counting frames, since a striped surface gives the same wrong read on every line. UPC-E, six digits whose
/// check hides in a parity pattern, keeps its stricter rule: only its own lines count.
public enum ScanLineEvidence {
    /// Agreeing scan lines a read needs to count twice: four times zxing's own minimum.
    public static let lines = 8
    /// How far apart across the bars (in pixels) the first and last of those lines must be, and the centres
    /// of two reads that count as independent: a few blur widths of a webcam's image, so that they are not
    /// one line's neighbours seeing the same pixels (one print defect or glare spot gives both the same error).
    public static let spread = 16.0

    /// Agreeing reads that `d` is worth: 2 or 1.
    public static func readsWorth(_ d: Detection) -> Int {
        guard d.format.mainNumberLength != nil else { return 1 }
        let bars = BarsSpan(d.corners, axisOf: d.corners)
        let lined = d.lineCount >= lines && bars.bottom - bars.top >= spread ? 2 : 1
        if d.format == .upcE { return lined }
        return min(2, max(lined, d.agreeingReads))
    }

    /// How many of `reads`, one code's reads of one image on the same bars, are independent: the most of
    /// them whose scan lines do not overlap across the bars and whose centres lie `spread` apart (whichever
    /// pass read them: the same lines read twice are one opinion), or what one of them already carries.
    public static func independentReads(_ reads: [Detection]) -> Int {
        guard let first = reads.first else { return 0 }
        let spans = reads.map { BarsSpan($0.corners, axisOf: first.corners) }.sorted { $0.top + $0.bottom < $1.top + $1.bottom }
        var count = 0
        var last: BarsSpan?
        for s in spans {
            if let l = last, s.top <= l.bottom || (s.top + s.bottom - l.top - l.bottom) / 2 < spread { continue }
            count += 1
            last = s
        }
        return max(count, reads.map(\.agreeingReads).max() ?? 1)
    }

    /// What separate reads of one code (or of its add-on) are worth together: the best of them, or two when
    /// independent ones agree (not for UPC-E).
    public static func worth(of reads: [Detection]) -> Int {
        let best = reads.map(readsWorth).max() ?? 0
        guard let first = reads.first, first.format.mainNumberLength != nil, first.format != .upcE else { return best }
        return max(best, min(2, independentReads(reads)))
    }
}
