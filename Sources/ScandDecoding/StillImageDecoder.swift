import ScandCore

/// Finds every code in a still image: the still-image strategy's passes over the rect of interest and crops
/// turned upright around patches that look like matrix codes (`CodeCandidates`), run isolated, merged into
/// one list of symbols in full-image pixels.
public struct StillImageDecoder: Sendable {
    public var strategy: StillImageStrategy
    public var decoder: ZXingDecoder
    public var merger = DetectionMerger()
    /// Also read crops turned upright around code-like patches (see `StillImageStrategy`).
    public var uprightCrops = true

    public init(formats: BarcodeFormats = .all, decoder: ZXingDecoder = ZXingDecoder()) {
        self.strategy = StillImageStrategy(formats: formats)
        self.decoder = decoder
    }

    public func decode(_ image: LumaImage, regionOfInterest roi: NormalizedRect = .full) -> DecodeReport {
        let region = roi.pixelRect(width: image.width, height: image.height)
        var finder = CodeCandidates()
        finder.limit = uprightCrops ? 8 : 0
        let candidates = image.pixels.withUnsafeBytes {
            finder.find(in: $0, width: image.width, height: image.height, rowStride: image.width, pixelStride: 1, region: region)
        }
        let passes = strategy.passes(region: region)
            + CodeCandidates.passes(for: candidates, region: region, formats: strategy.formats, label: "candidate")
        var report = decoder.decode(image, passes: passes)
        report.detections = merger.merge(report.detections)
        return report
    }
}
