import ScandCore

/// Decodes camera frames: the rect of interest of the frame as the camera delivers it after the configured
/// rotation and mirror. Corners come back in that oriented frame's pixels. Blocking: run it on a thread of
/// its own.
///
/// The per-frame budget goes where codes are: every frame gets zxing's fast passes (with a second decoder
/// process, also a linear read of every row) and upright crops around patches that look like DataMatrix,
/// Aztec or PDF417 codes (`CodeCandidates`); while frames decode well within the budget, one of the expensive passes (inverted, mirrored, centred crops for the
/// centre-bound DataMatrix and Aztec detectors, linear with tryHarder) is added per frame, in turn; a code
/// only such a pass read is re-read every frame from a small crop around it with that pass's settings; and
/// a frame with more QR codes than one zxing pass returns is read in tiles, beside the other passes.
public struct FrameDecoder: Sendable {
    public var formats: BarcodeFormats
    public var regionOfInterest: NormalizedRect
    public var transform: FrameTransform
    public var decoder: ZXingDecoder
    public var merger = DetectionMerger()
    /// ITF payload lengths to report; empty: any (see `ScandConfig.itfLengths`).
    public var itfLengths: Set<Int> = []
    /// Add an expensive pass only while a frame with one decodes in less than this (a 30 fps camera gives 33 ms).
    public var extraPassBudgetMilliseconds = 25.0
    /// QR codes in one pass from which the frame is read again in tiles (zxing 1.4 stops near 16).
    public var qrTileThreshold = 12
    private var schedule = ExtraPassSchedule()
    private(set) var tracked = TrackedCrops()
    /// Codes passes other than the candidate crops read in the last frame.
    private var readElsewhere: [Detection] = []
    /// Candidate patches whose crops read nothing, and the frame until which they rest.
    private var fruitless: [(bounds: PixelRect, until: Int)] = []
    private var frameCount = 0
    /// Frames a fruitless patch rests: half a second at 30 fps, so a code put there is still read soon.
    static let fruitlessRest = 15
    private var candidateFinder: CodeCandidates = {
        var c = CodeCandidates()
        c.limit = 4  // a frame's worth: each costs a few small passes
        return c
    }()
    /// What the last frame ran, for tests.
    private(set) var lastPasses: [DecodePass] = []
    /// The last frame held more QR codes than one pass returns.
    private var qrCrowd = false
    private var lastExtras: Set<ExtraPassSchedule.Kind> = []

    public init(formats: BarcodeFormats = .all, regionOfInterest: NormalizedRect = .full, transform: FrameTransform = .identity,
                itfLengths: Set<Int> = [], decoder: ZXingDecoder = ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker())) {
        self.formats = formats
        self.itfLengths = itfLengths
        self.regionOfInterest = regionOfInterest
        self.transform = transform
        self.decoder = decoder
    }

    /// Memory to capture frames into so that the decoder processes read them with no copy (see `DecoderWorker`).
    public var frameMemory: FrameMemoryAllocator? {
        guard let worker = decoder.worker else { return nil }
        return { @Sendable count in worker.frameMemory(count: count) }
    }

    public struct Result: Sendable {
        public var detections: [Detection]
        public var failures: [PassFailure]
        /// Size of the oriented frame the corners refer to.
        public var width: Int
        public var height: Int
    }

    /// Passes for one live frame: zxing's fast hints, matrix formats with its pyramid, linear ones without
    /// (the pyramid's merge aborts on linear codes). zxing's fast linear scan reads rows near the middle only;
    /// with `everyRow` (a second decoder process, which runs it beside the dearer matrix pass) a one-symbol
    /// linear read of every row is added, so an EAN anywhere in view reads in the first frame.
    public static func passes(region: PixelRect, formats: BarcodeFormats, everyRow: Bool = false) -> [DecodePass] {
        var passes: [DecodePass] = []
        let matrix = formats.intersection(.matrix), linear = formats.intersection(.linear)
        if !matrix.isEmpty {
            var p = DecodePass(label: "live matrix", crop: region, formats: matrix)
            p.tryHarder = false
            p.tryRotate = false
            p.tryDownscale = true
            passes.append(p)
        }
        if !linear.isEmpty {
            var p = DecodePass(label: "live linear", crop: region, formats: linear)
            p.tryHarder = false
            p.tryRotate = true
            var single = p
            single.label = "live linear single"
            single.maxSymbols = 1
            p.fallbacks = [single]
            passes.append(p)
            if everyRow {
                var harder = DecodePass(label: "live linear every row", crop: region, formats: linear)
                harder.maxSymbols = 1  // multi-symbol reads of linear codes can trip zxing 1.4's asserts
                passes.append(harder)
            }
        }
        return passes
    }

    /// Every linear row is read each frame when a second decoder process can do it beside the matrix pass.
    var everyRow: Bool { (decoder.worker?.lanes ?? 1) >= 2 }

    static let qrTileLabel = "live qr tile"
    static let candidateLabel = "live candidate"

    /// QR-only tiles over the region for crowds (zxing 1.4's QR detector stops near 16 codes a pass).
    static func qrTiles(of region: PixelRect) -> [DecodePass] {
        StillImageStrategy.gridTiles(of: region, columns: 4, rows: 4, overlap: 0.3).map { tile in
            var p = DecodePass(label: qrTileLabel, crop: tile, formats: BarcodeFormats(.qrCode))
            p.tryHarder = false
            p.tryRotate = false
            return p
        }
    }

    public mutating func decode(_ frame: Frame) throws(ImageGeometryError) -> Result {
        let f = frame.format
        guard let layout = f.lumaLayout, f.isComplete(frame.byteCount) else {
            throw ImageGeometryError(description: "frame of \(frame.byteCount) bytes does not hold \(f)")
        }
        let started = ContinuousClock.now
        let result: Result
        if transform == .identity {
            // The common case reads the luma in place: no copy of the frame.
            result = try frame.withUnsafeBytes { raw in
                Swift.Result { () throws(ImageGeometryError) in
                    try decode(UnsafeRawBufferPointer(rebasing: raw[layout.offset...]), width: f.width, height: f.height,
                               rowStride: f.bytesPerLine, pixelStride: layout.pixelStride)
                }
            }.get()
        } else {
            guard let luma = frame.luma() else { throw ImageGeometryError(description: "no luma in \(f)") }
            let oriented = luma.oriented(by: transform)
            result = try oriented.pixels.withUnsafeBytes { raw in
                Swift.Result { () throws(ImageGeometryError) in
                    try decode(raw, width: oriented.width, height: oriented.height, rowStride: oriented.width, pixelStride: 1)
                }
            }.get()
        }
        let spent = (ContinuousClock.now - started).components
        schedule.record(milliseconds: Double(spent.seconds) * 1000 + Double(spent.attoseconds) / 1e15, extras: lastExtras)
        return result
    }

    private mutating func decode(_ buffer: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: Int,
                                 pixelStride: Int) throws(ImageGeometryError) -> Result {
        let region = regionOfInterest.pixelRect(width: width, height: height)
        let (extras, kinds) = schedule.next(region: region, formats: formats, budget: extraPassBudgetMilliseconds,
                                            skipping: everyRow ? [.harderLinear] : [])
        lastExtras = kinds
        // A crowd of QR codes seen last frame is read in tiles at once, beside the other passes (on the
        // other decoder process when there are two); a new crowd gets its tiles after the first pass.
        let tiles = formats.contains(.qrCode) ? Self.qrTiles(of: region) : []
        // Patches that look like matrix codes, cropped and turned upright for the centre-bound detectors.
        // A patch where another pass read a code last frame needs no crop: that pass will read it again (the
        // cheap ones run every frame, QR tiles while the crowd stays, tracked crops while the code does).
        // A patch whose crops read nothing is left alone for a while (text, a logo, a textured surface).
        frameCount += 1
        let now = frameCount
        fruitless.removeAll { $0.until <= now }
        let known = readElsewhere, resting = fruitless.map(\.bounds)
        let candidates = formats.intersection(CodeCandidates.formats).isEmpty ? [] : candidateFinder.find(
            in: buffer, width: width, height: height, rowStride: rowStride, pixelStride: pixelStride, region: region,
            excluding: { bounds in
                known.contains { bounds.contains($0.corners.center) }
                    || resting.contains { $0.contains(Point(Double(bounds.x + bounds.width / 2), Double(bounds.y + bounds.height / 2))) }
            })
        let candidatePasses = CodeCandidates.passes(for: candidates, region: region, formats: formats, label: Self.candidateLabel)
        let passes = Self.passes(region: region, formats: formats, everyRow: everyRow) + candidatePasses + tracked.passes(region: region)
            + extras.map(\.pass) + (qrCrowd ? tiles : [])
        lastPasses = passes
        var report = try decoder.decode(buffer: buffer, width: width, height: height, rowStride: rowStride, pixelStride: pixelStride,
                                        passes: passes)
        let wholeFrameQR = zip(report.detections, report.foundBy).filter { $0.0.format == .qrCode && $0.1 != Self.qrTileLabel }.count
        if !qrCrowd, wholeFrameQR >= qrTileThreshold {
            let more = try decoder.decode(buffer: buffer, width: width, height: height, rowStride: rowStride, pixelStride: pixelStride, passes: tiles)
            report.detections += more.detections
            report.foundBy += more.foundBy
            report.failures += more.failures
        }
        qrCrowd = wholeFrameQR >= qrTileThreshold
        // Codes only an expensive pass read are re-read next frame from a crop around them.
        let isRegular = { (label: String) in !label.hasPrefix("live extra") && !label.hasPrefix(TrackedCrops.labelPrefix) }
        let regular = zip(report.detections, report.foundBy).filter { isRegular($0.1) }.map(\.0)
        tracked.update(found: zip(report.detections, report.foundBy).map { ($0, $1) }, regular: regular, extras: extras.map(\.pass))
        readElsewhere = zip(report.detections, report.foundBy).filter { $0.1 != Self.candidateLabel }.map(\.0)
        for c in candidates where !report.detections.contains(where: { c.bounds.contains($0.corners.center) }) {
            fruitless.append((c.bounds, now + Self.fruitlessRest))
        }
        let merged = merger.merge(report.detections).filter { d in
            d.format != .itf || itfLengths.isEmpty || itfLengths.contains(d.text.count)
        }
        return Result(detections: merged, failures: report.failures, width: width, height: height)
    }
}
