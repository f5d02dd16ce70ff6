import ScandCore

/// Folds the detections of several decoding passes over one image into the symbols in it.
///
/// - The same payload in the same place, found by two passes, is one symbol (the first pass wins).
/// - Each linear symbol kept carries how many independent reads agreed on it (`Detection.agreeingReads`):
///   reads of its payload on its bars whose scan lines lie apart, whichever passes made them; one place read
///   by two passes is one opinion.
/// - An EAN/UPC code read with its add-on and also without it (zxing reports both when the add-on reads)
///   is one symbol, with the add-on.
/// - Two linear reads of different payloads in the same place disagree: at most one can be right.
///   The read with clearly more scan lines behind it wins; otherwise both are dropped, because a
///   misread costs a kiosk more than a missed read. Matrix symbols carry strong error correction
///   and are not second-guessed.
/// - A linear read whose payload is a piece of a much better supported read of the same format just
///   beside it is a scan line that left the symbol half way (zxing, 1.4 and 3.1 alike, reads an ITF-14
///   "00123456789012" skewed by 5° also as "001234" and "789012" along its top and bottom edges; measured in
///   the format coverage test): it is dropped.
public struct DetectionMerger: Sendable {
    /// The winner of a disagreement needs this many times the scan lines of the loser.
    public var dominance: Int = 2

    public init() {}

    public func merge(_ detections: [Detection]) -> [Detection] { merge(detections, detection: \.self) }

    /// Merges items that each hold a detection (a read and the pass that made it), keeping each survivor's item.
    public func merge<Item>(_ items: [Item], detection: WritableKeyPath<Item, Detection>) -> [Item] {
        var kept: [Item] = []
        for item in items {
            if let i = kept.firstIndex(where: { $0[keyPath: detection].isSameSymbol(as: item[keyPath: detection]) }) {
                kept[i][keyPath: detection].lineCount = max(kept[i][keyPath: detection].lineCount, item[keyPath: detection].lineCount)
                // One plain read of the symbol makes it a read of real pixels.
                kept[i][keyPath: detection].reconstructed = kept[i][keyPath: detection].reconstructed && item[keyPath: detection].reconstructed
                // The frame's smear, as any pass that undid one guessed it (the bar check searches about it).
                if kept[i][keyPath: detection].smear == 0 { kept[i][keyPath: detection].smear = item[keyPath: detection].smear }
            } else {
                kept.append(item)
            }
        }
        let all = items.map { $0[keyPath: detection] }
        for i in kept.indices where kept[i][keyPath: detection].format.isLinear {
            let d = kept[i][keyPath: detection], bars = BarsSpan(d.corners, axisOf: d.corners)
            let agreeing = all.filter {
                $0.format == d.format && $0.bytes == d.bytes && BarsSpan($0.corners, axisOf: d.corners).sameBars(as: bars)
            }
            kept[i][keyPath: detection].agreeingReads = ScanLineEvidence.independentReads(agreeing)
        }
        let unique = kept.map { $0[keyPath: detection] }
        var dropped = Set<Int>()
        for i in unique.indices where unique[i].addOn == nil {
            if unique.contains(where: { $0.isAddOnVariant(of: unique[i]) }) { dropped.insert(i) }
        }
        for i in unique.indices where unique[i].format.isLinear {
            for j in unique.indices where j != i && isFragment(unique[i], of: unique[j]) { dropped.insert(i) }
        }
        for i in unique.indices where unique[i].format.isLinear && !dropped.contains(i) {
            for j in unique.indices where j > i && unique[j].format.isLinear && !dropped.contains(j) {
                guard unique[i].bytes != unique[j].bytes, !unique[i].isAddOnVariant(of: unique[j]),
                    Self.samePlace(unique[i].corners, unique[j].corners)
                else { continue }
                let a = max(1, unique[i].lineCount), b = max(1, unique[j].lineCount)
                if a >= dominance * b {
                    dropped.insert(j)
                } else if b >= dominance * a {
                    dropped.insert(i)
                } else {
                    dropped.insert(i)
                    dropped.insert(j)
                }
            }
        }
        return kept.indices.filter { !dropped.contains($0) }.map { kept[$0] }
    }

    func isFragment(_ part: Detection, of whole: Detection) -> Bool {
        guard part.format == whole.format, part.bytes.count < whole.bytes.count,
            whole.lineCount >= dominance * max(1, part.lineCount), Self.contains(whole.bytes, part.bytes)
        else { return false }
        let (pa, pb) = Self.extents(part.corners, along: Self.isHorizontal(whole.corners))
        let (wa, wb) = Self.extents(whole.corners, along: Self.isHorizontal(whole.corners))
        let overlap = min(pa.1, wa.1) - max(pa.0, wa.0)
        let gap = max(pb.0 - wb.1, wb.0 - pb.1)
        return overlap > (pa.1 - pa.0) / 2 && gap <= (wa.1 - wa.0) / 4
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func isHorizontal(_ q: Quadrilateral) -> Bool {
        let b = q.bounds
        return b.maxX - b.minX >= b.maxY - b.minY
    }

    /// (min, max) along the given axis and across it.
    static func extents(_ q: Quadrilateral, along horizontal: Bool) -> ((Double, Double), (Double, Double)) {
        let b = q.bounds
        return horizontal ? ((b.minX, b.maxX), (b.minY, b.maxY)) : ((b.minY, b.maxY), (b.minX, b.maxX))
    }

    /// Two linear reads cover the same bars: their extents along the longer axis overlap by more than half
    /// of the shorter one, and across it they touch (reads of one code lie on nearby rows).
    static func samePlace(_ a: Quadrilateral, _ b: Quadrilateral) -> Bool {
        let ba = a.bounds, bb = b.bounds
        let horizontal = max(ba.maxX - ba.minX, bb.maxX - bb.minX) >= max(ba.maxY - ba.minY, bb.maxY - bb.minY)
        let (a0, a1, b0, b1, c0, c1, d0, d1) =
            horizontal
            ? (ba.minX, ba.maxX, bb.minX, bb.maxX, ba.minY, ba.maxY, bb.minY, bb.maxY)
            : (ba.minY, ba.maxY, bb.minY, bb.maxY, ba.minX, ba.maxX, bb.minX, bb.maxX)
        let along = min(a1, b1) - max(a0, b0)
        let shorter = min(a1 - a0, b1 - b0)
        guard shorter > 0, along > shorter / 2 else { return false }
        let slack = max(2, shorter / 20)
        return min(c1, d1) - max(c0, d0) >= -slack
    }
}
