import ScandCore

/// How detections become events: when a code counts as seen, lost and forgotten.
public struct TrackerSettings: Sendable, Equatable {
    /// A code not seen for this long is LOST.
    public var lostAfter: Duration = .milliseconds(500)
    /// A code shown again within this time after it was lost is the same scan (no new SCAN); after it, a
    /// new one. zbarcam hard-codes 2 s.
    public var forgetAfter: Duration = .seconds(2)
    /// A code read while a scanned code of the same format and text was seen less than this long ago is that
    /// code, wherever it is in the frame: no second SCAN (Scandit's codeDuplicateFilter, Dynamsoft's
    /// duplicateForgetTime). It catches what tracking by place loses: one code read on scan lines far apart,
    /// a jump between frames, and two identical codes in view at once (one item at a till). 1 s: longer than
    /// any gap between decoded frames, shorter than `lostAfter` + `forgetAfter`, so that those alone decide
    /// when an item shown again is scanned again. 0 turns it off (identical codes in view are then two codes).
    public var duplicateFilter: Duration = .seconds(1)
    /// Agreeing reads needed before SCAN, per format. Formats without a check digit need more:
    /// misreads are worse than a slow read.
    public var confirmations: [BarcodeFormat: Int] = [.codabar: 3, .itf: 3, .code39: 3, .ean8: 2, .upcE: 2]
    /// Independent looks that must agree on a number before its SCAN, for the formats whose own check is weak
    /// (`ScanLineEvidence.weakCheck`): a hand scanner's redundancy or security level. A look is a decoded frame, or
    /// a read of a frame on bands that share no pixels with another; a small or reconstructed read is half a look,
    /// and looks of other numbers on the same bars count against it (`ScanLineEvidence`). 1 trusts a single read.
    public var redundancy = 2
    /// EAN/UPC codes that show an add-on (its bars beside the code, or a read of it: in one frame for a number that
    /// starts with one of `addOnPrefixes`; for any other a read of it, and in more frames than showed its place
    /// empty) are never scanned without their add-on while they stay in view: a hand scanner's smart supplemental
    /// mode. At a till the add-on is the price or the issue. false: they wait `addOnBarsWait` at most.
    public var addOnRequired = true
    /// The shortest read of a format that is a code to scand, in characters (Codabar's without its start and stop
    /// characters): shorter reads are ignored, as hand scanners' length limits ignore them (their defaults are 3 to
    /// 6 characters for Codabar). A short Codabar is what other codes' bars and print give: a Codabar has no check
    /// character, and two or three characters' worth of an EAN-13's bars, read as one, repeat frame after frame
    /// (the hard-mix till's "-3" on an ISBN's bars, in 20 frames running). Formats not listed: any length.
    public var minimumLengths: [BarcodeFormat: Int] = [.codabar: 4]
    /// Linear reads of at most this many characters need at least two agreeing reads whatever the format.
    public var shortLinearLength = 4
    /// UPDATE events with new corners for clients that draw overlays, at most this often per code; nil: none.
    public var updateInterval: Duration? = nil
    /// An EAN/UPC code that may carry an EAN-2/EAN-5 add-on waits this long from its first read for the add-on
    /// before its SCAN (zxing reads the add-on on the same scan line, so it usually comes in the same frame or
    /// the next two; 100 ms is 3 frames at 30 fps, about what a hand scanner's supplemental search takes). An
    /// add-on read twice alike ends the wait at once. 0: no wait (an add-on read later rides on UPDATE/LOST).
    public var addOnWait: Duration = .milliseconds(100)
    /// An EAN/UPC code read without its add-on while add-on-like bars lie just after it
    /// (`Detection.addOnBarsBeside`), or where an add-on would lie beyond the frame's edge
    /// (`Detection.addOnBeyondEdge`), or whose add-on one read gave and none contradicted, waits up to this long
    /// from its first read while it stays in view: a hand turning an item may give its add-on one clear frame.
    /// Frames that do not read the code do not end the wait; it ends before the code could be lost
    /// (`lostAfter`), and the code is then scanned without the add-on. 0: no such wait.
    public var addOnBarsWait: Duration = .milliseconds(300)
    /// Which EAN/UPC codes wait: main numbers (padded with zeros to 13 digits) starting with one of these,
    /// the prefixes that carry add-ons (Zebra's "smart supplemental" list: books 978/979, periodicals 977, 414,
    /// 419, 434, 439, 491, 378, 379); "all" for every EAN/UPC code. A code read with an add-on waits anyway.
    /// Other codes, the great majority at a till, are scanned at once.
    public var addOnPrefixes: [String] = ["378", "379", "414", "419", "434", "439", "491", "977", "978", "979"]
    /// Parts of a structured-append sequence wait this long for the rest.
    public var sequenceTimeout: Duration = .seconds(5)

    public init() {}

    /// Whether `d` is at least its format's `minimumLengths`.
    public func isLongEnough(_ d: Detection) -> Bool {
        minimumLengths[d.format].map { d.mainBytes.count >= $0 } ?? true
    }

    /// Agreeing reads before a SCAN: the format's count, and at least two for what a single read cannot
    /// vouch for (short linear reads, symbols with little error correction).
    public func confirmationsNeeded(for d: Detection) -> Int {
        var n = max(1, confirmations[d.format] ?? 1)
        if d.format.isLinear && d.mainBytes.count <= shortLinearLength { n = max(2, n) }
        if Self.hasWeakErrorCorrection(d) { n = max(2, n) }
        return n
    }

    /// Error correction too weak to trust one read (`ScanLineEvidence.hasWeakErrorCorrection`).
    public static func hasWeakErrorCorrection(_ d: Detection) -> Bool { ScanLineEvidence.hasWeakErrorCorrection(d) }

    /// Half-looks (`ScanLineEvidence.units`) a SCAN of `d` needs: the format's confirmations as whole looks, and
    /// for a format whose own check is weak at least `redundancy` looks.
    public func unitsNeeded(for d: Detection) -> Int {
        let n = confirmationsNeeded(for: d)
        return 2 * (ScanLineEvidence.weakCheck.contains(d.format) ? max(n, redundancy) : n)
    }

    /// Whether an EAN/UPC code read without an add-on waits for one (see `addOnWait`).
    public func waitsForAddOn(_ d: Detection) -> Bool {
        guard addOnWait > .zero, let length = d.format.mainNumberLength, d.mainBytes.count == length else { return false }
        if addOnPrefixes.contains("all") { return true }
        let gtin13 = String(repeating: "0", count: max(0, 13 - length)) + String(decoding: d.mainBytes, as: UTF8.self)
        return addOnPrefixes.contains { !$0.isEmpty && gtin13.hasPrefix($0) }
    }
}
