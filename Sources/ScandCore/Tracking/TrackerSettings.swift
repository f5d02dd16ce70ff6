/// How detections become events: when a code counts as seen, lost and forgotten.
public struct TrackerSettings: Sendable, Equatable {
    /// A code not seen for this long is LOST.
    public var lostAfter: Duration = .milliseconds(500)
    /// A code shown again within this time after it was lost is the same scan (no new SCAN); after it, a
    /// new one. zbarcam hard-codes 2 s; Scandit calls it the duplicate filter.
    public var forgetAfter: Duration = .seconds(2)
    /// Agreeing reads needed before SCAN, per format. Formats without a strong checksum need more:
    /// misreads are worse than a slow read.
    public var confirmations: [BarcodeFormat: Int] = [.codabar: 3, .itf: 3, .code39: 3, .ean8: 2, .upcE: 2]
    /// Linear reads of at most this many characters need at least two agreeing reads whatever the format.
    public var shortLinearLength = 4
    /// UPDATE events with new corners for clients that draw overlays, at most this often per code; nil: none.
    public var updateInterval: Duration? = nil
    /// An EAN/UPC code read without an add-on needs a second read before its SCAN, so that an EAN-2/EAN-5
    /// add-on (a book's price, a periodical's issue) read a frame later is part of it, not a second scan.
    public var waitForAddOn = true
    /// Parts of a structured-append sequence wait this long for the rest.
    public var sequenceTimeout: Duration = .seconds(5)

    public init() {}

    public func confirmationsNeeded(for d: Detection) -> Int {
        var base = max(1, confirmations[d.format] ?? 1)
        if waitForAddOn, d.format.mainNumberLength != nil, d.addOn == nil { base = max(2, base) }
        return d.format.isLinear && d.bytes.count <= shortLinearLength ? max(2, base) : base
    }
}
