import ScandCore

/// Finds every code in a still image: the still-image strategy's passes over the rect of interest and crops
/// turned upright around patches that look like codes (`CodeCandidates`), run isolated, merged into one list
/// of symbols in full-image pixels.
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
        // zxing's defaults first; then the other passes, with crops only around patches that read nothing so far
        // (most photos' codes are read by the first pass: cropping around them again is wasted).
        var report = decoder.decode(image, passes: [strategy.firstPass(region: region)])
        var finder = CodeCandidates()
        finder.limit = 4
        let found = report.detections
        let candidates = image.pixels.withUnsafeBytes {
            finder.find(
                in: $0, width: image.width, height: image.height, rowStride: image.width, pixelStride: 1, region: region,
                excluding: { bounds in found.contains { bounds.contains($0.corners.center) } })
        }
        let linear = CodeCandidates.linearPasses(
            for: candidates, region: region, formats: strategy.formats, role: .still(.uprightLinear), label: "still upright linear")
        var more = decoder.decode(
            image,
            passes: strategy.followUps(region: region, found: found)
                + CodeCandidates.passes(for: candidates, region: region, formats: strategy.formats, label: "candidate") + linear)
        // Small patches that still read nothing, or only a payload without a check that wants a second read: enlarged
        // for the linear formats.
        let read = found + StillImageStrategy.confirmed(more.found).map(\.detection)
        let unread = candidates.filter { c in !read.contains { c.bounds.contains($0.corners.center) } }
        let enlarged = CodeCandidates.linearPasses(
            for: unread, region: region, formats: strategy.formats, upscale: 2, role: .still(.enlargedLinear), label: "still enlarged linear")
        if !enlarged.isEmpty {
            let late = decoder.decode(image, passes: enlarged)
            more.found += late.found
            more.failures += late.failures
            more.notes += late.notes
            more.passesRun += late.passesRun
        }
        // A second look at the reads that want one: reads of weak formats without a second opinion, EAN/UPC
        // reads without an add-on, and reads that disagree with another on the same bars.
        var raw = report.found + more.found
        let merged = merger.merge(raw, detection: \.detection).map(\.detection)
        let disputed = StillDisagreement.disputes(merged, in: image).map { (merged[$0.0], merged[$0.1]) }
        let looks = StillSecondLook.passes(
            for: merger.merge(raw, detection: \.detection), raw: raw, disputed: disputed, in: image, region: region, formats: strategy.formats)
        if !looks.isEmpty {
            let late = decoder.decode(image, passes: looks)
            raw += late.found
            more.failures += late.failures
            more.notes += late.notes
            more.passesRun += late.passesRun
        }
        // A UPC-E read inside an EAN-13's bars (its left half) is no code of its own.
        report.found = StillDisagreement.resolve(merger.merge(StillImageStrategy.confirmed(raw), detection: \.detection), raw: raw, in: image)
            .filter { f in QuietZone.isClear(f.detection, width: image.width, height: image.height) { image[$0, $1] } }
        report.failures += more.failures
        report.notes += more.notes
        report.passesRun += more.passesRun
        return report
    }
}
