import Foundation
import ScandCore

/// Where linear codes are in a frame, which way their bars run and how wide their modules are, found cheaply
/// in the luma so that each can be read from a band turned upright around it (`LinearLocator.passes`)
/// instead of hoping a whole-frame scan line crosses it.
///
/// OpenCV's barcode detector's idea, on scand's budget: the region is cut into blocks; in each, the structure
/// tensor of the gradients (sampled every other pixel) says how strong the edges are and how much they agree
/// on one direction. Bars give strong edges that all run one way (coherence near 1); text, foliage and noise
/// give edges in every direction. Neighbouring coherent blocks whose directions agree form a candidate; a
/// scan line across its middle then counts its edges, which gives the module width (and rejects a few broad
/// stripes: a code has dozens of edges).
public struct LinearLocator: Sendable {
    public struct Candidate: Sendable, Equatable {
        /// The centre of the busy blocks, image pixels.
        public var centerX: Double
        public var centerY: Double
        /// The direction across the bars (the gradients'), degrees in -90…90: 0 is bars standing upright.
        public var degrees: Double
        /// Extent of the busy blocks across the bars and along them, pixels (quiet zones not included).
        public var length: Double
        public var thickness: Double
        /// The narrow module's width, pixels, estimated from the edges on a line across the middle.
        public var module: Double
        /// Edges on that line.
        public var edges: Int
        /// How strongly the blocks' edges agree on the direction, 0…1.
        public var coherence: Double
        /// Axis-aligned bounds of the busy blocks, image pixels.
        public var bounds: PixelRect
        /// Bar-like blocks in one direction, but too few edges across them to count as a code (`faintEdges`):
        /// perhaps a code swiped past, its fine bars smeared into grey, which only a deblurred read tells.
        public var isFaint = false
    }

    /// Block side for a region 1280 px wide; smaller regions use proportionally smaller blocks (at least 8).
    public var block = 16
    /// At most this many candidates, best first.
    public var limit = 4
    /// Fewest blocks in a candidate.
    public var minimumBlocks = 3
    /// A block is bar-like when its edges agree at least this much…
    public var minimumCoherence: Float = 0.55
    /// …its mean squared gradient (central differences, levels²) is at least this…
    public var minimumEnergy: Float = 500
    /// …and this many times the region's median block.
    public var aboveMedian: Float = 2
    /// Neighbouring blocks join a candidate when their directions differ by less than this, degrees.
    public var maximumTurn: Double = 18
    /// A line across a code crosses at least this many edges (EAN-8 has 43, the shortest Code 128 over 30).
    public var minimumEdges = 20
    /// A faint candidate (`Candidate.isFaint`) has at least this many edges across (a smeared EAN-8 keeps its
    /// few wide bars)…
    public var faintEdges = 6
    /// …blocks that agree on the direction at least this much (a code's bars, not the lines of a label's
    /// print, which reach 0.85)…
    public var faintCoherence = 0.9
    /// …and at most this many are found, after the others.
    public var faintLimit = 2

    public init() {}

    struct Block {
        var energy: Float = 0
        var coherence: Float = 0
        /// sxx + syy: the length `(c, s)` would have if every gradient agreed.
        var trace: Float = 0
        /// The doubled-angle vector of the gradients (sxx - syy, 2 sxy): its angle halved is the direction.
        var c: Float = 0
        var s: Float = 0
    }

    /// Candidates in `region`, best first, then (`includingFaint`) faint ones, best first.
    public func find(in luma: LumaView, region: PixelRect, includingFaint: Bool = false) -> [Candidate] {
        let r = region.intersection(PixelRect(x: 1, y: 1, width: luma.width - 2, height: luma.height - 2))
        let block = max(8, min(self.block, self.block * r.width / 1280 / 2 * 2))
        let cols = r.width / block, rows = r.height / block
        guard limit > 0, cols >= 2, rows >= 2, luma.holdsEveryPixel,
            let blocks = Self.blocks(in: luma, region: r, block: block, cols: cols, rows: rows)
        else { return [] }
        let median = blocks.map(\.energy).element(atSortedRank: blocks.count / 2)
        let threshold = max(minimumEnergy, aboveMedian * median)
        var found: [(candidate: Candidate, score: Double)] = [], faint: [(candidate: Candidate, score: Double)] = []
        for members in components(of: blocks, cols: cols, rows: rows, threshold: threshold) {
            guard members.count >= minimumBlocks,
                let c = candidate(
                    members, blocks: blocks, cols: cols, block: block, region: r, in: luma,
                    minimumEdges: includingFaint ? min(faintEdges, minimumEdges) : minimumEdges)
            else { continue }
            if c.isFaint {
                if c.coherence >= faintCoherence { faint.append((c, Double(members.count) * c.coherence)) }
            } else {
                found.append((c, Double(members.count) * c.coherence))
            }
        }
        return Self.joiningCollinear(found).sorted { $0.score > $1.score }.prefix(limit).map(\.candidate)
            + faint.sorted { $0.score > $1.score }.prefix(faintLimit).map(\.candidate)
    }

    /// The structure tensor of each block of the `cols` × `rows` grid at `r`'s top left, row by row (nil for an
    /// empty buffer).
    static func blocks(in luma: LumaView, region r: PixelRect, block: Int, cols: Int, rows: Int) -> [Block]? {
        guard let base = luma.base else { return nil }
        let rowStride = luma.rowStride, pixelStride = luma.pixelStride
        var blocks = [Block](repeating: Block(), count: cols * rows)
        // 16 samples a block (each a difference over two pixels) still tell a code's one direction from text's many.
        // This pass sees every frame: denser sampling cost a quarter of a millisecond more a 720p frame for the same
        // candidates. The samples are staggered: each row of samples starts a pixel further right and each column a
        // pixel further down, so that bars standing upright (or lying flat) are seen at every phase of the step (the
        // same columns in every row could all fall between the edges of 3 px modules).
        let step = max(2, block / 4), perSide = block / step
        let samples = Float(perSide * perSide)
        // Each sample's offset from its block's top left, once (the stagger's remainders are no work per frame).
        var offsets: [Int] = []
        for j in 0..<perSide {
            for i in 0..<perSide { offsets.append((j &* step &+ i % step) &* rowStride &+ (i &* step &+ j % step) &* pixelStride) }
        }
        for by in 0..<rows {
            for bx in 0..<cols {
                var sxx = 0, syy = 0, sxy = 0
                let corner = base + ((r.y &+ by &* block) &* rowStride &+ (r.x &+ bx &* block) &* pixelStride)
                for offset in offsets {
                    let c = corner + offset
                    let gx = Int(c[pixelStride]) &- Int(c[-pixelStride]), gy = Int(c[rowStride]) &- Int(c[-rowStride])
                    sxx &+= gx &* gx
                    syy &+= gy &* gy
                    sxy &+= gx &* gy
                }
                let trace = Float(sxx + syy)
                guard trace > 0 else { continue }
                let c = Float(sxx - syy), s = Float(2 * sxy)
                blocks[by * cols + bx] = Block(energy: trace / samples, coherence: (c * c + s * s).squareRoot() / trace, trace: trace, c: c, s: s)
            }
        }
        return blocks
    }

    /// The bar-like blocks (`threshold` of energy, `minimumCoherence`) in groups of neighbours whose directions
    /// differ by less than `maximumTurn`, in the order of each group's first block.
    func components(of blocks: [Block], cols: Int, rows: Int, threshold: Float) -> [[Int]] {
        func barLike(_ b: Block) -> Bool { b.energy >= threshold && b.coherence >= minimumCoherence }
        func direction(_ b: Block) -> Double { Double(atan2(b.s, b.c)) / 2 }
        let turn = maximumTurn * .pi / 180
        var label = [Int](repeating: -1, count: blocks.count)
        var components: [[Int]] = []
        for start in blocks.indices where label[start] < 0 && barLike(blocks[start]) {
            var stack = [start], members: [Int] = []
            label[start] = components.count
            while let i = stack.popLast() {
                members.append(i)
                let bx = i % cols, by = i / cols, a = direction(blocks[i]), cosA = cos(a), sinA = sin(a)
                for dy in -2...2 {
                    for dx in -2...2 {
                        let nx = bx + dx, ny = by + dy
                        guard nx >= 0, ny >= 0, nx < cols, ny < rows else { continue }
                        // A block two away joins across the bars only (within a block of the line across), over a
                        // flat block: a wide bar or space can leave a column of blocks without an edge in an upright
                        // code, which split it in pieces no band read. Codes stacked along their bars stay apart, and
                        // so do patches of texture with busy, incoherent blocks between them (joined, the
                        // false-positive photos gave three times the candidates).
                        if abs(dx) == 2 || abs(dy) == 2 {
                            guard abs(Double(dy) * cosA - Double(dx) * sinA) <= 1,
                                blocks[(by + dy / 2) * cols + bx + dx / 2].energy < threshold / 4
                            else { continue }
                        }
                        let n = ny * cols + nx
                        guard label[n] < 0, barLike(blocks[n]) else { continue }
                        var d = abs(direction(blocks[n]) - a)
                        if d > .pi / 2 { d = .pi - d }
                        if d < turn {
                            label[n] = components.count
                            stack.append(n)
                        }
                    }
                }
            }
            components.append(members)
        }
        return components
    }

    /// The candidate a component of bar-like blocks makes, or nil when a line across it has fewer than
    /// `minimumEdges` edges (faint under `self.minimumEdges`).
    private func candidate(
        _ members: [Int], blocks: [Block], cols: Int, block: Int, region r: PixelRect, in luma: LumaView, minimumEdges: Int
    ) -> Candidate? {
        var c: Float = 0, s: Float = 0, trace: Float = 0
        for i in members {
            c += blocks[i].c
            s += blocks[i].s
            trace += blocks[i].trace
        }
        // Coherence of the whole component: how much its blocks agree with each other as well.
        let coherence = Double((c * c + s * s).squareRoot() / max(trace, 1))
        func across(_ angle: Double) -> (centerX: Double, centerY: Double, length: Double, thickness: Double, edges: Int, module: Double)? {
            let cosA = cos(angle), sinA = sin(angle)
            var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
            for i in members {
                let x = Double(r.x + (i % cols) * block) + Double(block) / 2, y = Double(r.y + (i / cols) * block) + Double(block) / 2
                let u = x * cosA + y * sinA, v = -x * sinA + y * cosA
                minU = min(minU, u)
                maxU = max(maxU, u)
                minV = min(minV, v)
                maxV = max(maxV, v)
            }
            // The middle of the extent, not the mean of the blocks: a code's blocks are denser where its bars are longer.
            let mu = (minU + maxU) / 2, mv = (minV + maxV) / 2
            let cx = mu * cosA - mv * sinA, cy = mu * sinA + mv * cosA
            let length = maxU - minU + Double(block), thickness = maxV - minV + Double(block)
            guard
                let (edges, module) = Self.edges(
                    in: luma, region: r, centerX: cx, centerY: cy, cos: cosA, sin: sinA, length: length, thickness: thickness),
                edges >= minimumEdges
            else { return nil }
            return (cx, cy, length, thickness, edges, module)
        }
        // The blocks' central differences lean towards the axes by a few degrees: near enough to count the edges
        // across, which rejects most components, not to cut a band. Sobel over the blocks' pixels refines it after.
        let rough = Double(atan2(s, c)) / 2
        guard across(rough) != nil else { return nil }
        let angle =
            Self.direction(members, cols: cols, block: block, region: r, in: luma) ?? rough
        guard let a = across(angle) else { return nil }
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for i in members {
            minX = min(minX, i % cols)
            maxX = max(maxX, i % cols)
            minY = min(minY, i / cols)
            maxY = max(maxY, i / cols)
        }
        let bounds = PixelRect(x: r.x + minX * block, y: r.y + minY * block, width: (maxX - minX + 1) * block, height: (maxY - minY + 1) * block)
        return Candidate(
            centerX: a.centerX, centerY: a.centerY, degrees: angle * 180 / .pi, length: a.length, thickness: a.thickness, module: a.module,
            edges: a.edges, coherence: coherence, bounds: bounds, isFaint: a.edges < self.minimumEdges)
    }

    /// The direction across the bars (radians, -π/2…π/2) from Sobel gradients at every other pixel of the blocks
    /// `members`, each weighted by its strength: the doubled angles' mean, halved.
    static func direction(_ members: [Int], cols: Int, block: Int, region r: PixelRect, in luma: LumaView) -> Double? {
        guard let base = luma.base else { return nil }
        let rowStride = luma.rowStride, pixelStride = luma.pixelStride
        var sc = 0.0, ss = 0.0
        for i in members {
            let x0 = r.x + (i % cols) * block, y0 = r.y + (i / cols) * block
            var y = y0
            while y < y0 + block {
                var x = x0
                while x < x0 + block {
                    let c = base + y * rowStride + x * pixelStride
                    let up = c - rowStride, down = c + rowStride
                    let gx =
                        Int(up[pixelStride]) + 2 * Int(c[pixelStride]) + Int(down[pixelStride]) - Int(up[-pixelStride]) - 2 * Int(c[-pixelStride])
                        - Int(down[-pixelStride])
                    let gy =
                        Int(down[-pixelStride]) + 2 * Int(down[0]) + Int(down[pixelStride]) - Int(up[-pixelStride]) - 2 * Int(up[0])
                        - Int(up[pixelStride])
                    sc += Double(gx * gx - gy * gy)
                    ss += Double(2 * gx * gy)
                    x += 2
                }
                y += 2
            }
        }
        guard sc != 0 || ss != 0 else { return nil }
        return atan2(ss, sc) / 2
    }

    /// Edges on three lines across the candidate (at a quarter, half and three quarters of its thickness), the
    /// line with most of them: how many, and the narrow module's width they imply. A code's elements average
    /// 1.6 (EAN/UPC) to 2 (ITF, Code 39) modules.
    static func edges(
        in luma: LumaView, region r: PixelRect, centerX: Double, centerY: Double, cos cosA: Double, sin sinA: Double, length: Double,
        thickness: Double
    ) -> (Int, Double)? {
        let steps = Int(length)
        guard steps >= 8, let base = luma.base else { return nil }
        let rowStride = luma.rowStride, pixelStride = luma.pixelStride
        var best: (count: Int, span: Double) = (0, 0)
        var profile = [Float](repeating: 0, count: steps)
        for offset in [-0.25, 0.0, 0.25] {
            let ox = centerX - sinA * offset * thickness - cosA * length / 2
            let oy = centerY + cosA * offset * thickness - sinA * length / 2
            for i in 0..<steps {
                let x = ox + cosA * Double(i), y = oy + sinA * Double(i)
                guard x >= Double(r.x), y >= Double(r.y), x < Double(r.maxX - 1), y < Double(r.maxY - 1) else {
                    profile[i] = i > 0 ? profile[i - 1] : 128
                    continue
                }
                let x0 = Int(x), y0 = Int(y), fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
                let p = base + y0 * rowStride + x0 * pixelStride
                let top = Float(p[0]) * (1 - fx) + Float(p[pixelStride]) * fx
                let bottom = Float(p[rowStride]) * (1 - fx) + Float(p[rowStride + pixelStride]) * fx
                profile[i] = top * (1 - fy) + bottom * fy
            }
            // Edges: extrema of the derivative, alternating in sign, above a quarter of the strongest.
            var strongest: Float = 0
            for i in 1..<(steps - 1) { strongest = max(strongest, abs(profile[i + 1] - profile[i - 1])) }
            let floor = max(12, strongest / 4)
            var count = 0, lastSign: Float = 0, first = -1, last = -1
            var i = 1
            while i < steps - 1 {
                let d = profile[i + 1] - profile[i - 1]
                if abs(d) >= floor, d.sign != lastSign.sign || lastSign == 0 {
                    // The extremum of this run of same-signed strong derivative.
                    var j = i
                    while j + 1 < steps - 1, (profile[j + 2] - profile[j]).sign == d.sign, abs(profile[j + 2] - profile[j]) >= floor { j += 1 }
                    count += 1
                    if first < 0 { first = i }
                    last = j
                    lastSign = d
                    i = j + 1
                } else {
                    i += 1
                }
            }
            if count > best.count { best = (count, Double(max(1, last - first))) }
        }
        guard best.count >= 2 else { return nil }
        return (best.count, best.span / Double(best.count - 1) / 1.7)
    }
}

extension LinearLocator {
    /// Quiet zone and room for an EAN add-on on either side of the busy blocks, in modules: a band cut at the
    /// blocks' edge would lose the guard bars, which the blocks' grid can leave out.
    static let margin = 14.0
    /// The most pixels an enlarged band may have (an EAN-13 at 1.2 px modules, ×3: about 140,000).
    static let maximumBandPixels = 400_000

    /// A pass per candidate: a band along the code, turned so that its bars stand upright, enlarged where the
    /// modules are under about two pixels (zxing's edge finding needs two), with every scan line read (a band is
    /// small). The band keeps inside `region` (a code outside the rect of interest is not the kiosk's).
    public static func passes(
        for candidates: [Candidate], region: PixelRect, formats: BarcodeFormats, role: DecodePass.Role, label: String
    ) -> [DecodePass] {
        let wanted = formats.intersection(.linear)
        guard !wanted.isEmpty else { return [] }
        return candidates.compactMap { c in
            let a = c.degrees * .pi / 180, cosA = cos(a), sinA = sin(a)
            var length = c.length + 2 * (margin * c.module + 4)
            // A faint candidate's blocks are its wide bars', which may lie to one side (a glare spot can hide the
            // rest): three times as long.
            if c.isFaint { length = max(length, 3 * c.length) }
            var thickness = min(max(c.thickness * 0.75, 20), 96)
            func inside() -> Bool {
                [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].allSatisfy { (su, sv) in
                    let x = c.centerX + su * length / 2 * cosA - sv * thickness / 2 * sinA
                    let y = c.centerY + su * length / 2 * sinA + sv * thickness / 2 * cosA
                    return x >= Double(region.x) && y >= Double(region.y) && x <= Double(region.maxX - 1) && y <= Double(region.maxY - 1)
                }
            }
            while !inside() && length > c.length * 0.8 { length *= 0.95 }
            while !inside() && thickness > 12 { thickness *= 0.9 }
            guard inside() else { return nil }
            let w = Int(length), h = Int(thickness)
            let crop = PixelRect(x: Int(c.centerX.rounded()) - w / 2, y: Int(c.centerY.rounded()) - h / 2, width: w, height: h)
            var p = DecodePass(role, label: label, crop: crop, formats: wanted)
            p.rotationDegrees = c.degrees
            p.upscale = c.module < 1.3 ? 3 : c.module < 2.2 ? 2 : 1
            // A code's band enlarged is a few hundred thousand pixels; a long stripy surface measured as fine bars
            // would be millions a frame: enlarged less.
            while p.upscale > 1 && w * h * p.upscale * p.upscale > Self.maximumBandPixels { p.upscale -= 1 }
            p.tryRotate = false
            p.tryHarder = true
            return p
        }
    }
}
