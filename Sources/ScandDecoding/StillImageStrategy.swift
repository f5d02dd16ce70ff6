import ScandCore

/// The passes for one still image, where finding every code matters more than time (`scand scan`).
///
/// zxing-cpp 3.1's defaults read rotated, mirrored, off-centre and downscaled codes in one pass, and
/// inverted matrix codes (1.4 needed a pass for each of those faults), so a still gets that pass with EAN
/// add-ons read, and an inverted copy for the formats zxing's own inversion leaves out (linear codes and
/// PDF417, measured: `HandledFaultsTests`). `StillImageDecoder` adds crops turned upright around patches
/// that look like matrix codes, for tilted codes zxing's detectors still miss.
public struct StillImageStrategy: Sendable {
    public var formats: BarcodeFormats

    public init(formats: BarcodeFormats = .all) {
        self.formats = formats
    }

    /// Formats zxing's `tryInvert` does not read light-on-dark.
    public static let notSelfInverting = BarcodeFormats.linear.union(BarcodeFormats(.pdf417))

    public func passes(region: PixelRect) -> [DecodePass] {
        var p = DecodePass(label: "still", crop: region, formats: formats)
        p.tryDownscale = true
        p.tryInvert = true
        var passes = [p]
        let inverting = formats.intersection(Self.notSelfInverting)
        if !inverting.isEmpty {
            var q = DecodePass(label: "still inverted", crop: region, formats: inverting)
            q.invert = true
            passes.append(q)
        }
        return passes
    }
}
