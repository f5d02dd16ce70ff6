import ScandCore

/// Decodes camera frames: the rect of interest of the frame as the camera delivers it after the configured
/// rotation and mirror, with cheap passes suited to 30 frames a second. Corners come back in that oriented
/// frame's pixels. Blocking: run it on a thread of its own.
public struct FrameDecoder: Sendable {
    public var formats: BarcodeFormats
    public var regionOfInterest: NormalizedRect
    public var transform: FrameTransform
    public var decoder: ZXingDecoder
    public var merger = DetectionMerger()

    public init(formats: BarcodeFormats = .all, regionOfInterest: NormalizedRect = .full, transform: FrameTransform = .identity,
                decoder: ZXingDecoder = ZXingDecoder(passTimeoutMilliseconds: 2000)) {
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

    public func decode(_ frame: Frame) throws(ImageGeometryError) -> Result {
        let f = frame.format
        guard let layout = f.lumaLayout, f.isComplete(frame.bytes.count) else {
            throw ImageGeometryError(description: "frame of \(frame.bytes.count) bytes does not hold \(f)")
        }
        if transform == .identity {
            // The common case reads the luma in place: no copy of the frame.
            let region = regionOfInterest.pixelRect(width: f.width, height: f.height)
            let outcome = frame.bytes.withUnsafeBytes { raw in
                Swift.Result { () throws(ImageGeometryError) in
                    try decoder.decode(buffer: UnsafeRawBufferPointer(rebasing: raw[layout.offset...]), width: f.width, height: f.height,
                                       rowStride: f.bytesPerLine, pixelStride: layout.pixelStride,
                                       passes: Self.passes(region: region, formats: formats))
                }
            }
            let report = try outcome.get()
            return Result(detections: merger.merge(report.detections), failures: report.failures, width: f.width, height: f.height)
        }
        guard let luma = frame.luma() else { throw ImageGeometryError(description: "no luma in \(f)") }
        let oriented = luma.oriented(by: transform)
        let region = regionOfInterest.pixelRect(width: oriented.width, height: oriented.height)
        let report = decoder.decode(oriented, passes: Self.passes(region: region, formats: formats))
        return Result(detections: merger.merge(report.detections), failures: report.failures, width: oriented.width, height: oriented.height)
    }
}
