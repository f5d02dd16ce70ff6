import ScandCore

/// Two linear reads of different payloads on the same bars of a still: at most one is right. zxing reads a
/// code's scan lines in groups and can report two groups of one code apart across its bars with different
/// numbers (a photo of a tilted EAN-13 gave its own number on seven lines and another product's on five
/// lines 30 px beside them), which `DetectionMerger` takes for two codes side by side. The bars between
/// the two reads tell: where the luma profile along the bars midway between them matches both reads'
/// profiles, the two lie on one code. The payload with clearly more scan lines behind it, over every pass,
/// wins; otherwise both go, since a misread costs more than a missed read.
enum StillDisagreement {
    /// The winner needs this many times the loser's scan lines.
    static let dominance = 2
    /// Profiles this alike (normalised correlation) show the same bars.
    static let alike = 0.7

    /// Pairs of reads in `merged` that lie on the same bars with different payloads.
    static func disputes(_ merged: [Detection], in image: LumaImage) -> [(Int, Int)] {
        disputes(merged, image: { image })
    }

    /// The same, `image` made only when two reads are placed so that their bars must be compared (a live
    /// frame's luma is copied only then).
    static func disputes(_ merged: [Detection], image: () -> LumaImage) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        var made: LumaImage?
        let once = { () -> LumaImage in
            if let made { return made }
            let m = image()
            made = m
            return m
        }
        for i in merged.indices where merged[i].format.isLinear {
            for j in merged.indices where j > i && merged[j].format.isLinear {
                let a = merged[i], b = merged[j]
                guard a.bytes != b.bytes, !a.isAddOnVariant(of: b), sameBars(a, b, image: once) else { continue }
                out.append((i, j))
            }
        }
        return out
    }

    /// A live frame's reads (`merged`) without the losers of each dispute, the scan lines counted over the
    /// frame's every read (`raw`): a pass that reads a wrong number on a few lines of a code reads it again
    /// on every frame of a still scene, and the tracker would take those reads for agreeing evidence.
    /// A frame has few lines behind either (zxing's live passes read a handful of lines a code), so a number
    /// also wins with no fewer lines over clearly more of the bars' height: a wrong number read near one end of
    /// a code's bars (a label or the bars' ragged ends beside them) against the right one over the rest.
    static func settled(_ merged: [Detection], raw: [DecodeReport.Found], image: () -> LumaImage) -> [Detection] {
        let dropped = losers(merged, image: image) { d, other in
            let a = lines(for: d, in: raw), b = lines(for: other, in: raw)
            return a >= dominance * b || (a >= b && cover(for: d, in: raw) >= Double(dominance) * cover(for: other, in: raw))
        }
        return merged.indices.filter { !dropped.contains($0) }.map { merged[$0] }
    }

    /// `merged` without the losers of each dispute, the scan lines counted over `raw` (every pass's reads).
    static func resolve(_ merged: [DecodeReport.Found], raw: [DecodeReport.Found], in image: LumaImage) -> [DecodeReport.Found] {
        let dropped = losers(merged.map(\.detection), image: { image }) { d, other in
            lines(for: d, in: raw) >= dominance * lines(for: other, in: raw)
        }
        return merged.indices.filter { !dropped.contains($0) }.map { merged[$0] }
    }

    /// The indices of `merged` that lose a dispute: every read that `wins` does not say beats the other.
    private static func losers(_ merged: [Detection], image: () -> LumaImage, wins: (Detection, Detection) -> Bool) -> Set<Int> {
        var dropped = Set<Int>()
        for (i, j) in disputes(merged, image: image) {
            if !wins(merged[i], merged[j]) { dropped.insert(i) }
            if !wins(merged[j], merged[i]) { dropped.insert(j) }
        }
        return dropped
    }

    /// Scan lines behind `d`'s main number over every read of it on its bars.
    static func lines(for d: Detection, in raw: [DecodeReport.Found]) -> Int {
        reads(of: d, in: raw).reduce(0) { $0 + max(1, $1.lineCount) }
    }

    /// How much of the bars' height (across them, pixels) the reads of `d`'s main number on its bars cover.
    static func cover(for d: Detection, in raw: [DecodeReport.Found]) -> Double {
        let spans = reads(of: d, in: raw).map { BarsSpan($0.corners, axisOf: d.corners) }
        guard let top = spans.map(\.top).min(), let bottom = spans.map(\.bottom).max() else { return 0 }
        return bottom - top
    }

    /// The reads in `raw` of `d`'s format and main number on its bars (overlapping along them by more than
    /// half the shorter).
    private static func reads(of d: Detection, in raw: [DecodeReport.Found]) -> [Detection] {
        let bars = BarsSpan(d.corners)
        return raw.map(\.detection).filter { r in
            guard r.format == d.format, r.mainBytes == d.mainBytes else { return false }
            let s = BarsSpan(r.corners, axisOf: d.corners)
            return min(s.end, bars.end) - max(s.start, bars.start) > min(s.length, bars.length) / 2
        }
    }

    /// `a` and `b` cover the same bars: parallel, overlapping along the bars by more than half the shorter,
    /// within a code's length across, and with the profile midway between them like both of theirs (`made`
    /// only then: see `disputes`).
    static func sameBars(_ a: Detection, _ b: Detection, image made: () -> LumaImage) -> Bool {
        let sa = BarsSpan(a.corners), sb = BarsSpan(b.corners, axisOf: a.corners)
        let own = BarsSpan(b.corners)
        guard abs(sa.along.x * own.along.x + sa.along.y * own.along.y) > 0.985 else { return false }  // within 10°
        let from = max(sa.start, sb.start), to = min(sa.end, sb.end)
        guard to - from > min(sa.length, sb.length) / 2, abs(sa.middle - sb.middle) <= max(sa.length, sb.length) else { return false }
        // Touching across: one code's lines.
        if max(sa.top - sb.bottom, sb.top - sa.bottom) <= 2 { return true }
        let count = min(2000, max(64, Int((to - from) * 2)))
        let image = made()
        let pa = BarsSpan.profile(image, sa, across: sa.middle, from: from, to: to, count: count)
        let pb = BarsSpan.profile(image, sa, across: sb.middle, from: from, to: to, count: count)
        let pm = BarsSpan.profile(image, sa, across: (sa.middle + sb.middle) / 2, from: from, to: to, count: count)
        return correlation(pm, pa) >= alike && correlation(pm, pb) >= alike
    }

    /// The best normalised correlation of two profiles shifted by up to 3 samples (1.5 px) against each other.
    static func correlation(_ x: [Double], _ y: [Double]) -> Double {
        guard x.count == y.count, x.count > 16 else { return 0 }
        var best = -1.0
        for shift in -3...3 {
            let lo = max(0, -shift), hi = min(x.count, y.count - shift)
            let n = Double(hi - lo)
            var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
            for k in lo..<hi {
                let u = x[k], v = y[k + shift]
                sx += u
                sy += v
                sxx += u * u
                syy += v * v
                sxy += u * v
            }
            let cov = sxy - sx * sy / n, vx = sxx - sx * sx / n, vy = syy - sy * sy / n
            guard vx > 0, vy > 0 else { continue }
            best = max(best, cov / (vx * vy).squareRoot())
        }
        return best
    }
}
