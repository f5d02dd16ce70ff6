import ScandCore

/// Finds every code in a still image: the still-image strategy's passes over the rect of interest, run
/// isolated, merged into one list of symbols in full-image pixels.
public struct StillImageDecoder: Sendable {
    public var strategy: StillImageStrategy
    public var decoder: ZXingDecoder
    public var merger = DetectionMerger()

    public init(formats: BarcodeFormats = .all, decoder: ZXingDecoder = ZXingDecoder()) {
        self.strategy = StillImageStrategy(formats: formats)
        self.decoder = decoder
    }

    public func decode(_ image: LumaImage, regionOfInterest roi: NormalizedRect = .full) -> DecodeReport {
        let region = roi.pixelRect(width: image.width, height: image.height)
        var report = decoder.decode(image, passes: strategy.passes(region: region))
        report.detections = merger.merge(report.detections)
        return report
    }
}
