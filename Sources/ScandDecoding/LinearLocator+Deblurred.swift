import ScandCore

extension LinearLocator {
    /// Smears to undo, in image pixels across the bars: a code swiped past a webcam moves a few pixels within
    /// the exposure (100 px a frame at 30 fps, an exposure of a twentieth of the frame time), and below 4 the
    /// bands read it as it is.
    static let smearLengths = [4, 5, 6, 7, 8, 10]
    /// Defocus blurs to undo (a Gaussian's sigma, image pixels): a code held too near a fixed-focus webcam is
    /// blurred by about a Gaussian, and one blurred by more than half its module is past reading anyway; under
    /// 1 px zxing reads it as it is.
    static let defocusWidths = [1.1, 1.5, 2.0]
    /// Image rows of a band read deblurred: enough scan lines, at a sixth of a tall band's cost.
    static let deblurredRows = 24

    /// `band` (a located band, bars upright) read from its middle rows once for each defocus width with that
    /// blur undone along its rows, and in a moving scene once for each smear length too: the blur is unknown,
    /// and a wrong guess reads nothing.
    static func deblurred(_ band: DecodePass, moving: Bool) -> [DecodePass] {
        var crop = band.crop
        if crop.height > deblurredRows {
            crop = PixelRect(x: crop.x, y: crop.y + (crop.height - deblurredRows) / 2, width: crop.width, height: deblurredRows)
        }
        let scale = max(1, band.upscale)
        let smears = moving ? smearLengths.map { (length: min(64, $0 * scale), sigma: 0.0) } : []
        return (smears + defocusWidths.map { (length: 0, sigma: min(20, $0 * Double(scale))) }).map { blur in
            var p = band
            p.role = .deblurredLinear
            p.label = "live deblurred linear"
            p.crop = crop
            p.unsmear = blur.length
            p.defocus = blur.sigma
            // The shim centres each deblurred row on 128 (`UndoRowBlur`).
            p.binarizer = .fixedThreshold
            return p
        }
    }
}
