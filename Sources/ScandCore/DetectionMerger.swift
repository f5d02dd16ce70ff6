/// Folds the detections of several decoding passes over one image into the symbols in it.
///
/// - The same payload in the same place, found by two passes, is one symbol (the first pass wins).
/// - Two linear reads of different payloads in the same place disagree: at most one can be right.
///   The read with clearly more scan lines behind it wins; otherwise both are dropped, because a
///   misread costs a kiosk more than a missed read. Matrix symbols carry strong error correction
///   and are not second-guessed.
public struct DetectionMerger: Sendable {
    /// The winner of a disagreement needs this many times the scan lines of the loser.
    public var dominance: Int = 2

    public init() {}

    public func merge(_ detections: [Detection]) -> [Detection] {
        var unique: [Detection] = []
        for d in detections {
            if let i = unique.firstIndex(where: { $0.isSameSymbol(as: d) }) {
                unique[i].lineCount = max(unique[i].lineCount, d.lineCount)
            } else {
                unique.append(d)
            }
        }
        var dropped = Set<Int>()
        for i in unique.indices where unique[i].format.isLinear {
            for j in unique.indices where j > i && unique[j].format.isLinear {
                guard unique[i].bytes != unique[j].bytes, Self.samePlace(unique[i].corners, unique[j].corners) else { continue }
                let a = max(1, unique[i].lineCount), b = max(1, unique[j].lineCount)
                if a >= dominance * b { dropped.insert(j) } else if b >= dominance * a { dropped.insert(i) } else {
                    dropped.insert(i)
                    dropped.insert(j)
                }
            }
        }
        return unique.indices.filter { !dropped.contains($0) }.map { unique[$0] }
    }

    /// Two linear reads cover the same bars: their extents along the longer axis overlap by more than half
    /// of the shorter one, and across it they touch (reads of one code lie on nearby rows).
    static func samePlace(_ a: Quadrilateral, _ b: Quadrilateral) -> Bool {
        let ba = a.bounds, bb = b.bounds
        let horizontal = max(ba.maxX - ba.minX, bb.maxX - bb.minX) >= max(ba.maxY - ba.minY, bb.maxY - bb.minY)
        let (a0, a1, b0, b1, c0, c1, d0, d1) = horizontal
            ? (ba.minX, ba.maxX, bb.minX, bb.maxX, ba.minY, ba.maxY, bb.minY, bb.maxY)
            : (ba.minY, ba.maxY, bb.minY, bb.maxY, ba.minX, ba.maxX, bb.minX, bb.maxX)
        let along = min(a1, b1) - max(a0, b0)
        let shorter = min(a1 - a0, b1 - b0)
        guard shorter > 0, along > shorter / 2 else { return false }
        let slack = max(2, shorter / 20)
        return min(c1, d1) - max(c0, d0) >= -slack
    }
}
