import ScandCore

extension LinearLocator {
    /// Smears to undo, in image pixels across the bars: a code swiped past a webcam moves a few pixels within
    /// the exposure (100 px a frame at 30 fps, an exposure of a twentieth of the frame time), and below 4 the
    /// bands read it as it is.
    static let smearLengths = [4, 5, 6, 7, 8, 10]
    /// Image rows of a band read unsmeared: enough scan lines, at a sixth of a tall band's cost.
    static let unsmearedRows = 24

    /// `band` (a located band, bars upright) read once for each smear length with that smear undone along its
    /// rows, from its middle rows: a swiped code's smear is unknown, and a wrong length reads nothing.
    static func unsmeared(_ band: DecodePass) -> [DecodePass] {
        var crop = band.crop
        if crop.height > unsmearedRows {
            crop = PixelRect(x: crop.x, y: crop.y + (crop.height - unsmearedRows) / 2, width: crop.width, height: unsmearedRows)
        }
        return smearLengths.map { length in
            var p = band
            p.role = .unsmearedLinear
            p.label = "live unsmeared linear"
            p.crop = crop
            p.unsmear = min(64, length * max(1, band.upscale))
            // The shim centres each unsmeared row on 128 (`UndoRowSmear`).
            p.binarizer = .fixedThreshold
            return p
        }
    }
}
