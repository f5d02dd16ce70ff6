import ScandCore

/// Decodes camera frames: the rect of interest of the frame as the camera delivers it after the configured
/// rotation and mirror. Corners come back in that oriented frame's pixels. Blocking: run it on a thread of
/// its own.
///
/// The per-frame budget goes where codes are: every frame gets zxing's fast passes; while frames decode
/// well within the budget, one of the expensive passes (inverted, mirrored, centred crops for the
/// centre-bound DataMatrix and Aztec detectors, linear with tryHarder) is added per frame, in turn; a pass
/// that found something keeps running every frame while it does, so a code only it reads stays tracked;
/// and a frame with more QR codes than one zxing pass returns is read again in tiles.
public struct FrameDecoder: Sendable {
    public var formats: BarcodeFormats
    public var regionOfInterest: NormalizedRect
    public var transform: FrameTransform
    public var decoder: ZXingDecoder
    public var merger = DetectionMerger()
    /// Add an expensive pass only while a frame with one decodes in less than this (a 30 fps camera gives 33 ms).
    public var extraPassBudgetMilliseconds = 25.0
    /// QR codes in one pass from which the frame is read again in tiles (zxing 1.4 stops near 16).
    public var qrTileThreshold = 12
    private var schedule = ExtraPassSchedule()
    private var lastExtras: Set<ExtraPassSchedule.Kind> = []

    public init(formats: BarcodeFormats = .all, regionOfInterest: NormalizedRect = .full, transform: FrameTransform = .identity,
                decoder: ZXingDecoder = ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker())) {
        self.formats = formats
        self.regionOfInterest = regionOfInterest
        self.transform = transform
        self.decoder = decoder
    }

    public struct Result: Sendable {
        public var detections: [Detection]
        public var failures: [PassFailure]
        /// Size of the oriented frame the corners refer to.
        public var width: Int
        public var height: Int
    }

    /// Passes for one live frame: zxing's fast hints, matrix formats with its pyramid, linear ones without
    /// (the pyramid's merge aborts on linear codes).
    public static func passes(region: PixelRect, formats: BarcodeFormats) -> [DecodePass] {
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
        }
        return passes
    }

    public mutating func decode(_ frame: Frame) throws(ImageGeometryError) -> Result {
        let f = frame.format
        guard let layout = f.lumaLayout, f.isComplete(frame.bytes.count) else {
            throw ImageGeometryError(description: "frame of \(frame.bytes.count) bytes does not hold \(f)")
        }
        let started = ContinuousClock.now
        let result: Result
        if transform == .identity {
            // The common case reads the luma in place: no copy of the frame.
            result = try frame.bytes.withUnsafeBytes { raw in
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
        let (extras, kinds) = schedule.next(region: region, formats: formats, budget: extraPassBudgetMilliseconds)
        lastExtras = kinds
        var report = try decoder.decode(buffer: buffer, width: width, height: height, rowStride: rowStride, pixelStride: pixelStride,
                                        passes: Self.passes(region: region, formats: formats) + extras.map(\.pass))
        if formats.contains(.qrCode), report.detections.filter({ $0.format == .qrCode }).count >= qrTileThreshold {
            let tiles = StillImageStrategy.gridTiles(of: region, columns: 4, rows: 4, overlap: 0.3).map { tile in
                var p = DecodePass(label: "live qr tile", crop: tile, formats: BarcodeFormats(.qrCode))
                p.tryHarder = false
                p.tryRotate = false
                return p
            }
            let more = try decoder.decode(buffer: buffer, width: width, height: height, rowStride: rowStride, pixelStride: pixelStride, passes: tiles)
            report.detections += more.detections
            report.foundBy += more.foundBy
            report.failures += more.failures
        }
        // Extra passes that found something the regular ones did not run again next frame.
        let isExtra = { (label: String) in label.hasPrefix("live extra") }
        let regular = zip(report.detections, report.foundBy).filter { !isExtra($0.1) }.map(\.0)
        let newFinds = Set(zip(report.detections, report.foundBy).filter { d, label in
            isExtra(label) && !regular.contains { $0.isSameSymbol(as: d) }
        }.map(\.1))
        schedule.found(extras.filter { newFinds.contains($0.pass.label) }.map(\.kind))
        return Result(detections: merger.merge(report.detections), failures: report.failures, width: width, height: height)
    }
}
