import ScandCore

/// The passes for one still image, where finding every code matters more than time
/// (`scand scan`; the live path will choose cheaper ones).
///
/// Each pass answers a fault of zxing-cpp 1.4.0 that its default hints inherit:
/// - matrix formats read with zxing's defaults (its pyramid is safe for them);
/// - linear formats read without zxing's pyramid, whose merge of layers trips the `lineCount() == 1`
///   assert; should the multi-symbol read still abort, a single-symbol read recovers the code;
/// - an inverted copy, since zxing never reads light-on-dark symbols;
/// - a mirrored copy for QR, Micro QR, DataMatrix and Aztec, mostly unread when mirrored;
/// - overlapping tiles, since the DataMatrix and Aztec detectors look near the image centre only and the
///   QR detector stops at about 16 symbols a pass.
public struct StillImageStrategy: Sendable {
    public var formats: BarcodeFormats
    /// Tiles per side; the tiles are half the region wide and high, `tileGrid` steps apart.
    public var tileGrid = 3

    public init(formats: BarcodeFormats = .all) {
        self.formats = formats
    }

    static let mirrorable = BarcodeFormats([.qrCode, .microQRCode, .dataMatrix, .aztec])
    static let centreBound = BarcodeFormats([.dataMatrix, .aztec, .qrCode, .microQRCode])

    public func passes(region: PixelRect) -> [DecodePass] {
        var passes: [DecodePass] = []
        let matrix = formats.intersection(.matrix), linear = formats.intersection(.linear)
        for inverted in [false, true] {
            let suffix = inverted ? " inverted" : ""
            if !matrix.isEmpty {
                var p = DecodePass(label: "matrix" + suffix, crop: region, formats: matrix)
                p.tryDownscale = true
                p.invert = inverted
                passes.append(p)
            }
            if !linear.isEmpty { passes.append(linearPass(label: "linear" + suffix, region: region, formats: linear, inverted: inverted)) }
        }
        let mirrorable = formats.intersection(Self.mirrorable)
        if !mirrorable.isEmpty {
            var p = DecodePass(label: "mirrored", crop: region, formats: mirrorable)
            p.mirror = true
            p.tryDownscale = true
            passes.append(p)
        }
        let tiled = formats.intersection(Self.centreBound)
        if !tiled.isEmpty, tileGrid > 1 {
            let tiles = Self.tiles(of: region, grid: tileGrid)
            for (i, tile) in tiles.enumerated() {
                var p = DecodePass(label: "tile \(i + 1)/\(tiles.count)", crop: tile, formats: tiled)
                p.tryDownscale = true
                passes.append(p)
            }
        }
        return passes
    }

    /// Multi-symbol linear read; on a crash, one single-symbol read, then one per format.
    func linearPass(label: String, region: PixelRect, formats: BarcodeFormats, inverted: Bool) -> DecodePass {
        var p = DecodePass(label: label, crop: region, formats: formats)
        p.invert = inverted
        var single = p
        single.label = label + " single"
        single.maxSymbols = 1
        single.fallbacks = formats.members.count > 1 ? formats.members.map { f in
            var one = single
            one.label = "\(label) single \(f.name)"
            one.formats = BarcodeFormats(f)
            return one
        } : []
        p.fallbacks = [single]
        return p
    }

    /// `grid`×`grid` tiles, each half the region's size, spread evenly from edge to edge, so that every
    /// point of the region lies near the centre of some tile.
    public static func tiles(of region: PixelRect, grid: Int) -> [PixelRect] {
        let tw = max(1, region.width / 2), th = max(1, region.height / 2)
        var out: [PixelRect] = []
        for row in 0..<grid {
            for col in 0..<grid {
                let x = region.x + (region.width - tw) * col / (grid - 1)
                let y = region.y + (region.height - th) * row / (grid - 1)
                out.append(PixelRect(x: x, y: y, width: tw, height: th))
            }
        }
        return out
    }
}
