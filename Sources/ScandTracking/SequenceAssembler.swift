import ScandCore

/// Collects the symbols of structured-append sequences (QR, PDF417, DataMatrix, Aztec) seen together or
/// across frames, and hands back one detection with the whole payload once every part has been read.
/// Parts are held back until then; a finished sequence still in view stands for all its parts.
struct SequenceAssembler: Sendable {
    struct Pending: Sendable {
        var parts: [Int: Detection]
        var count: Int
        var firstSeen: Duration
    }

    /// Keyed by format, sequence id and count.
    private var pending: [String: Pending] = [:]
    private var merged: [String: (detection: Detection, lastSeen: Duration)] = [:]

    /// A frame's detections with sequence parts replaced by the whole sequences they complete.
    mutating func add(_ detections: [Detection], at now: Duration) -> [Detection] {
        var out: [Detection] = []
        var touched: [String] = []
        for d in detections {
            guard let s = d.sequence, s.count > 1, s.count <= 64, (0..<s.count).contains(s.index) else {
                out.append(d)
                continue
            }
            let key = "\(d.format.rawValue)/\(s.id)/\(s.count)"
            if merged[key] == nil {
                var p = pending[key] ?? Pending(parts: [:], count: s.count, firstSeen: now)
                p.parts[s.index] = d
                pending[key] = p
                guard p.parts.count == p.count else { continue }
                pending.removeValue(forKey: key)
                merged[key] = (Self.merge(p), now)
            }
            merged[key]!.lastSeen = now
            if !touched.contains(key) { touched.append(key) }
        }
        return out + touched.compactMap { merged[$0]?.detection }
    }

    mutating func expire(at now: Duration, timeout: Duration) {
        pending = pending.filter { now - $0.value.firstSeen < timeout }
        merged = merged.filter { now - $0.value.lastSeen < timeout }
    }

    /// Parts in index order: texts and bytes concatenated; the outline of the first part.
    static func merge(_ p: Pending) -> Detection {
        let ordered = p.parts.keys.sorted().compactMap { p.parts[$0] }
        var d = ordered[0]
        d.text = ordered.map(\.text).joined()
        d.bytes = ordered.flatMap(\.bytes)
        d.sequence = Detection.Sequence(count: p.count, index: -1, id: d.sequence?.id ?? "")
        return d
    }
}
