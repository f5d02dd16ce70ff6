import ScandCore

/// Codes that only an expensive pass read (inverted, rotated linear, downscaled), read again every frame
/// from a small crop around where they were, with that pass's settings: the code stays found for a
/// fraction of what the whole expensive pass costs.
struct TrackedCrops: Sendable {
    struct Entry: Sendable {
        var template: DecodePass
        var last: Detection
        var misses = 0
    }

    private(set) var entries: [Entry] = []
    /// A code not re-read this many frames in a row is left to the expensive passes to find again.
    static let keepForMisses = 2
    static let maxEntries = 16

    /// One pass per tracked code: its finder's settings over the code's last bounds grown by a quarter of its
    /// size and a little more (codes move between frames; a linear code's corners can be a thin line).
    func passes(region: PixelRect) -> [DecodePass] {
        entries.indices.compactMap { i in
            let b = entries[i].last.corners.bounds
            let size = max(b.maxX - b.minX, b.maxY - b.minY)
            let margin = size * 0.25 + 24
            let x0 = Int(b.minX - margin), y0 = Int(b.minY - margin), x1 = Int((b.maxX + margin).rounded(.up)),
                y1 = Int((b.maxY + margin).rounded(.up))
            let crop = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersection(region)
            guard crop.width >= 16, crop.height >= 16 else { return nil }
            var p = entries[i].template
            p.role = .trackedCrop(i)
            p.label = "live tracked \(i) \(entries[i].template.label)"
            p.crop = crop
            p.scale = 1
            p.formats = BarcodeFormats(entries[i].last.format)
            p.fallbacks = p.fallbacks.map {
                var f = $0; f.crop = crop; f.scale = 1; f.formats = p.formats; return f
            }
            return p
        }
    }

    /// After a frame: tracked codes re-read move with their code; new finds of expensive passes that the
    /// regular passes missed are tracked from the next frame; codes the regular passes read need no crop.
    /// A new entry's template is the first of `extras` with the role of the pass that read it and the code's
    /// format (an inverted extra is one pass for the matrix formats and one per band for the linear ones).
    mutating func update(found: [DecodeReport.Found], regular: [Detection], extras: [DecodePass]) {
        for i in entries.indices {
            if let hit = found.first(where: { $0.role == .trackedCrop(i) && $0.detection.bytes == entries[i].last.bytes }) {
                entries[i].last = hit.detection
                entries[i].misses = 0
            } else {
                entries[i].misses += 1
            }
        }
        entries.removeAll { e in e.misses > Self.keepForMisses || regular.contains { $0.isSameSymbol(as: e.last) } }
        for f in found where f.role.isExtra && entries.count < Self.maxEntries {
            let d = f.detection
            // Of several passes of one role (the upright crops around each patch), the one whose crop holds the code.
            let fitting = extras.filter { $0.role == f.role && $0.formats.contains(d.format) }
            guard let template = fitting.first(where: { $0.crop.contains(d.corners.center) }) ?? fitting.first,
                !regular.contains(where: { $0.isSameSymbol(as: d) }),
                !entries.contains(where: { $0.last.isSameSymbol(as: d) })
            else { continue }
            entries.append(Entry(template: template, last: d))
        }
    }
}
