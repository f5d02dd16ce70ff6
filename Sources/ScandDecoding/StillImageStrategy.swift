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
/// - crops centred on a grid of points, since the DataMatrix and Aztec detectors only find a symbol that
///   covers the image centre (measured: a 152 px DataMatrix is lost 50 px off centre, a 124 px Aztec 35 px).
public struct StillImageStrategy: Sendable {
    public var formats: BarcodeFormats
    /// Centred crops come in sizes of the region's shorter side divided by these.
    public var cropDivisors = [2, 4]

    public init(formats: BarcodeFormats = .all) {
        self.formats = formats
    }

    static let mirrorable = BarcodeFormats([.qrCode, .microQRCode, .dataMatrix, .aztec])
    static let centreBound = BarcodeFormats([.dataMatrix, .aztec])

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
        let centreBound = formats.intersection(Self.centreBound)
        if !centreBound.isEmpty {
            let crops = cropDivisors.flatMap { Self.centredCrops(of: region, side: min(region.width, region.height) / $0) }
            for (i, crop) in crops.enumerated() {
                var p = DecodePass(label: "centred crop \(i + 1)/\(crops.count)", crop: crop, formats: centreBound)
                p.tryRotate = false  // the DataMatrix and Aztec detectors are rotation-invariant
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

    /// `columns`×`rows` tiles covering the region, each grown by `overlap` of its size so that a symbol on a
    /// boundary lies whole in one of them.
    public static func gridTiles(of region: PixelRect, columns: Int, rows: Int, overlap: Double) -> [PixelRect] {
        let w = region.width / columns, h = region.height / rows
        let gx = Int(Double(w) * overlap), gy = Int(Double(h) * overlap)
        var out: [PixelRect] = []
        for r in 0..<rows {
            for c in 0..<columns {
                let x0 = max(region.x, region.x + c * w - gx), y0 = max(region.y, region.y + r * h - gy)
                let x1 = min(region.maxX, region.x + (c + 1) * w + gx), y1 = min(region.maxY, region.y + (r + 1) * h + gy)
                out.append(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            }
        }
        return out
    }

    /// Square crops of `side` pixels whose centres lie on a grid `side / 3` apart across the region, so
    /// that every symbol about half a crop wide covers the centre of one of them.
    public static func centredCrops(of region: PixelRect, side: Int) -> [PixelRect] {
        guard side >= 48 else { return [] }
        let step = side / 3
        func centres(_ start: Int, _ length: Int) -> [Int] {
            guard length > side else { return [start + length / 2] }
            let n = (length - side) / step + 1
            let used = (n - 1) * step, margin = (length - side - used) / 2
            return (0..<n).map { start + margin + $0 * step + side / 2 }
        }
        let w = min(side, region.width), h = min(side, region.height)
        return centres(region.y, region.height).flatMap { cy in
            centres(region.x, region.width).map { cx in
                PixelRect(x: max(region.x, min(cx - w / 2, region.maxX - w)), y: max(region.y, min(cy - h / 2, region.maxY - h)), width: w, height: h)
            }
        }
    }
}
