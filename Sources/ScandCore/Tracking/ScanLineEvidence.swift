/// When one frame's read of an EAN/UPC code is worth two agreeing reads. A hand laser scanner's redundancy
/// counts scan lines, not frames; zxing reports how many of its scan lines agreed on a linear read (it needs
/// two for any read). Lines some pixels apart see independent sensor noise, so many agreeing lines spread
/// over the bars vouch for a read as two frames do, and a code a decoder sees in one frame only (a fast
/// hand, a busy decoder) is still scanned. Only for EAN/UPC and their add-ons, whose check digit or parity
/// pattern turns a line's misread into no read: formats without a check digit (Codabar, ITF, Code 39) and
/// short reads keep counting frames, since a striped surface gives the same wrong read on every line.
public enum ScanLineEvidence {
    /// Agreeing scan lines a read needs to count twice: four times zxing's own minimum.
    public static let lines = 8
    /// How far apart across the bars (in pixels) the first and last of those lines must be: a few blur widths
    /// of a webcam's image, so that they are not one line's neighbours seeing the same pixels.
    public static let spread = 16.0

    /// Agreeing reads that `d` is worth: 2 or 1.
    public static func readsWorth(_ d: Detection) -> Int {
        guard d.format.mainNumberLength != nil, d.lineCount >= lines else { return 1 }
        let bars = BarsSpan(d.corners, axisOf: d.corners)
        return bars.bottom - bars.top >= spread ? 2 : 1
    }
}
