import Foundation
import ScandCore

/// Where matrix codes probably are, and at what angle, found cheaply in the luma: zxing's fast DataMatrix and
/// Aztec search (the live cheap pass) looks near the image centre only, and its PDF417, Micro QR, rMQR and
/// MaxiCode detectors miss many tilted codes, so scand crops around each candidate, searching harder, turns
/// the crop back by the candidate's angle, and enlarges it for DataMatrix.
///
/// A code is a patch dense in strong edges running in two perpendicular directions. The region is cut into
/// blocks; a block is busy when its mean gradient is well above the frame's typical block; neighbouring busy
/// blocks form a candidate; the candidate's angle (modulo 90°) is the mean of its gradients' directions
/// taken four times (which folds the two edge directions of a square grid onto one).
public struct CodeCandidates: Sendable {
    public struct Candidate: Sendable, Equatable {
        /// Bounds in image pixels.
        public var bounds: PixelRect
        /// The code's angle in degrees, -45…45 (its edges run at this angle and at this angle + 90°).
        public var degrees: Double
        /// How strongly the edges agree on that angle, 0…1 (text and noise are low, codes high).
        public var coherence: Double
    }

    /// Block side in pixels (larger frames use larger blocks: `find` takes the larger of this and a 160th of
    /// the region's width).
    public var block = 8
    /// At most this many candidates, largest first.
    public var limit = 6
    /// Fewest blocks in a candidate: smaller patches are text or texture.
    public var minimumBlocks = 9
    /// A busy block's mean gradient (levels over two pixels, across and down) is at least this…
    public var contrast: Float = 12
    /// …and this many times the frame's median block.
    public var aboveMedian: Float = 3

    public init() {}

    /// Candidates in `region`, largest first, leaving out patches `excluding` rejects (before their angle,
    /// the dearer part, is measured).
    public func find(in luma: LumaView, region: PixelRect, excluding: (PixelRect) -> Bool = { _ in false }) -> [Candidate] {
        let width = luma.width, height = luma.height
        let r = region.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        let block = max(self.block, r.width / 160 / 2 * 2)
        let cols = (r.width - 2) / block, rows = (r.height - 2) / block
        guard limit > 0, cols >= 3, rows >= 3, let base = luma.base, luma.holdsEveryPixel else { return [] }
        // Sixteen samples a block, with differences over two pixels: an edge between samples counts whatever its
        // parity (at larger blocks some edges fall between samples; a code has plenty).
        let step = max(2, block / 4)
        let energy = Self.blockEnergies(luma, base: base, region: r, block: block, step: step, cols: cols, rows: rows)
        // Busy: well above the typical block (the median is background in a kiosk's view) and strong in itself.
        let median = Float(energy.element(atSortedRank: energy.count / 2))
        let samples = Float(((block + step - 1) / step) * ((block + step - 1) / step))
        let threshold = Int(max(aboveMedian * median, contrast * samples))
        var label = [Int](repeating: -1, count: energy.count)
        var patches: [(bounds: PixelRect, blocks: Int)] = []
        for start in energy.indices where energy[start] > threshold && label[start] < 0 {
            // Flood fill over 8-neighbours.
            var stack = [start], members = 0
            var minX = Int.max, minY = Int.max, maxX = 0, maxY = 0
            label[start] = patches.count
            while let i = stack.popLast() {
                members += 1
                let bx = i % cols, by = i / cols
                minX = min(minX, bx); maxX = max(maxX, bx); minY = min(minY, by); maxY = max(maxY, by)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nx = bx + dx, ny = by + dy
                        guard nx >= 0, ny >= 0, nx < cols, ny < rows else { continue }
                        let n = ny * cols + nx
                        if label[n] < 0, energy[n] > threshold {
                            label[n] = patches.count
                            stack.append(n)
                        }
                    }
                }
            }
            let w = maxX - minX + 1, h = maxY - minY + 1
            // A code is a compact patch: a long thin run of busy blocks is a line of text or an edge.
            let compact = members >= minimumBlocks && max(w, h) <= 4 * min(w, h)
            patches.append(
                (
                    PixelRect(x: r.x + minX * block, y: r.y + minY * block, width: w * block + 2, height: h * block + 2),
                    compact ? members : 0
                ))
        }
        let inner = PixelRect(x: 1, y: 1, width: width - 2, height: height - 2)
        return patches.filter { $0.blocks > 0 && !excluding($0.bounds) }.sorted { $0.blocks > $1.blocks }.prefix(limit).map { p in
            let (degrees, coherence) = Self.angle(in: luma, inside: p.bounds.intersection(inner))
            return Candidate(bounds: p.bounds, degrees: degrees, coherence: coherence)
        }
    }

    /// Each block's gradient energy, row by row: |dx| + |dy| over two pixels at `step`-spaced samples. Every
    /// frame's every sampled row goes through here: unchecked arithmetic, and for grey frames in 8 px blocks (up
    /// to 720p) two blocks' samples at a time in SIMD lanes. Integer sums: the result is the same either way.
    static func blockEnergies(
        _ luma: LumaView, base: UnsafePointer<UInt8>, region r: PixelRect, block: Int, step: Int, cols: Int, rows: Int,
        vectorized: Bool = true
    ) -> [Int] {
        let rowStride = luma.rowStride, pixelStride = luma.pixelStride
        let dxOffset = 2 * pixelStride, dyOffset = 2 * rowStride
        let pairs = vectorized && pixelStride == 1 && block == 8 && step == 2 ? cols / 2 : 0
        var energy = [Int](repeating: 0, count: cols * rows)
        energy.withUnsafeMutableBufferPointer { energy in
            for by in 0..<rows {
                let y0 = r.y &+ by &* block
                var y = y0
                while y < y0 &+ block {
                    let row = base + y &* rowStride
                    let out = energy.baseAddress! + by &* cols
                    for pair in 0..<pairs {
                        let c = UnsafeRawPointer(row + (r.x &+ pair &* 16))
                        // The even bytes are the samples: the low bytes of 16-bit lanes (little-endian), one block a half.
                        let p = c.loadUnaligned(as: SIMD8<Int16>.self) & 0x00FF
                        let dx = ((c + 2).loadUnaligned(as: SIMD8<Int16>.self) & 0x00FF) &- p
                        let dy = ((c + dyOffset).loadUnaligned(as: SIMD8<Int16>.self) & 0x00FF) &- p
                        let sum = (dx ^ (dx &>> 15)) &- (dx &>> 15) &+ (dy ^ (dy &>> 15)) &- (dy &>> 15)
                        out[2 &* pair] &+= Int(sum.lowHalf.wrappedSum())
                        out[2 &* pair &+ 1] &+= Int(sum.highHalf.wrappedSum())
                    }
                    for bx in 2 &* pairs..<cols {
                        var e = 0
                        var x = r.x &+ bx &* block
                        let end = x &+ block
                        while x < end {
                            let c = row + x &* pixelStride
                            let p = Int32(c[0]), dx = Int32(c[dxOffset]) &- p, dy = Int32(c[dyOffset]) &- p
                            // |dx| + |dy| without branches or overflow checks.
                            e &+= Int((dx ^ (dx >> 31)) &- (dx >> 31) &+ (dy ^ (dy >> 31)) &- (dy >> 31))
                            x &+= step
                        }
                        out[bx] &+= e
                    }
                    y &+= step
                }
            }
        }
        return energy
    }

    /// The dominant edge angle (modulo 90°) of a patch and how coherent it is, from Sobel gradients at every
    /// pixel (the block pass's two-pixel differences lean towards the axes).
    static func angle(in luma: LumaView, inside r: PixelRect) -> (Double, Double) {
        guard let base = luma.base else { return (0, 0) }
        let rowStride = luma.rowStride, pixelStride = luma.pixelStride
        var sr = 0.0, si = 0.0, sw = 0.0
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX {
                let c = base + y * rowStride + x * pixelStride
                func v(_ dx: Int, _ dy: Int) -> Int { Int(c[dy * rowStride + dx * pixelStride]) }
                let gx = Double(v(1, -1) + 2 * v(1, 0) + v(1, 1) - v(-1, -1) - 2 * v(-1, 0) - v(-1, 1))
                let gy = Double(v(-1, 1) + 2 * v(0, 1) + v(1, 1) - v(-1, -1) - 2 * v(0, -1) - v(1, -1))
                let m2 = gx * gx + gy * gy
                guard m2 > 6400 else { continue }  // 20 levels a pixel, in Sobel's scale
                let a = gx * gx - gy * gy, b = 2 * gx * gy
                sr += (a * a - b * b) / m2
                si += 2 * a * b / m2
                sw += m2
            }
        }
        guard sw > 0 else { return (0, 0) }
        return (atan2(si, sr) / 4 * 180 / .pi, (sr * sr + si * si).squareRoot() / sw)
    }

    /// Formats whose detectors gain from a crop around the candidate turned upright.
    public static let formats = BarcodeFormats([.dataMatrix, .aztec, .pdf417, .microQRCode, .rmqrCode, .maxiCode])

    /// Formats read again from the crop enlarged: zxing's DataMatrix detector misses many small symbols
    /// (measured with zxing-cpp 3.1.1 in `scand bench compare`: 17 of 20 DataMatrix with it, 13 without; Aztec,
    /// which zxing 1.4 needed it for, reads as well without).
    static let smallModuleFormats = BarcodeFormats(.dataMatrix)

    /// Passes over each candidate: a square crop around it with a margin, turned back by its angle when the
    /// edges agree on one, for the candidate formats in `formats`; then, for DataMatrix, the crop enlarged three
    /// times (up to 600 px a side); a second one shifted by a few pixels reads no more (`scand bench compare`).
    public static func passes(for candidates: [Candidate], region: PixelRect, formats: BarcodeFormats, label: String) -> [DecodePass] {
        let wanted = formats.intersection(Self.formats)
        guard !wanted.isEmpty else { return [] }
        var out: [DecodePass] = []
        for c in candidates {
            guard var p = upright(c, region: region, role: .candidateCrop, label: label, formats: wanted) else { continue }
            p.tryRotate = false
            out.append(p)
            let upscale = min(3, 600 / max(1, side(c))), fine = wanted.intersection(Self.smallModuleFormats)
            if !fine.isEmpty, upscale > 1 {
                p.formats = fine
                p.upscale = upscale
                out.append(p)
            }
        }
        return out
    }

    /// Crops around candidates up to this many pixels a side are read again enlarged for the linear formats.
    public static let enlargeLinearUpTo = 320

    /// Passes over each candidate for the linear formats: the same crop turned back by the candidate's angle.
    /// zxing's linear reader needs one scan line across the whole symbol, which a code tilted by 20–40° lacks in
    /// the rows and columns it scans; turned back (modulo 90°) its bars stand upright or lie flat, and zxing's
    /// rotation reads the latter. With `upscale` 2, only crops up to `enlargeLinearUpTo` a side: a small code's
    /// narrow bars can be about a pixel wide, too fine for zxing's edge finding once turned (resampled).
    public static func linearPasses(
        for candidates: [Candidate], region: PixelRect, formats: BarcodeFormats, upscale: Int = 1, role: DecodePass.Role, label: String
    ) -> [DecodePass] {
        let wanted = formats.intersection(.linear)
        guard !wanted.isEmpty else { return [] }
        return candidates.compactMap { c in
            guard var p = upright(c, region: region, role: role, label: label, formats: wanted) else { return nil }
            guard upscale == 1 || side(c) <= enlargeLinearUpTo else { return nil }
            p.tryRotate = true
            p.tryHarder = true
            p.upscale = upscale
            return p
        }
    }

    /// The side of the square crop around `c`: its patch and half as much again (codes' quiet zones).
    static func side(_ c: Candidate) -> Int { Int(Double(max(c.bounds.width, c.bounds.height)) * 1.5) + 8 }

    /// A square crop around `c` with a margin, turned back by its angle when the edges agree on one.
    static func upright(_ c: Candidate, region: PixelRect, role: DecodePass.Role, label: String, formats: BarcodeFormats) -> DecodePass? {
        let side = side(c)
        let cx = c.bounds.x + c.bounds.width / 2, cy = c.bounds.y + c.bounds.height / 2
        let crop = PixelRect(x: cx - side / 2, y: cy - side / 2, width: side, height: side).intersection(region)
        guard crop.width >= 24, crop.height >= 24 else { return nil }
        var p = DecodePass(role, label: label, crop: crop, formats: formats)
        p.rotationDegrees = c.coherence > 0.2 && abs(c.degrees) >= 1 ? c.degrees : 0
        return p
    }
}
