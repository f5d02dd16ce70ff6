import Foundation
import ScandCore

extension LinearLocator {
    /// Candidates on one line, a quiet zone or less apart, are one: an EAN/UPC and its add-on (7–12 modules
    /// apart: a band cut around the main number alone reads it without the add-on, and one around the add-on
    /// alone reads nothing), or pieces of one code that an empty stretch of blocks split. Two codes printed in a
    /// row become one band, which reads both.
    static let collinearGapModules = 14.0

    /// `found` with collinear neighbours joined, each joined pair scoring the sum of its parts.
    static func joiningCollinear(_ found: [(candidate: Candidate, score: Double)]) -> [(candidate: Candidate, score: Double)] {
        var parts = found
        var joinedOne = true
        while joinedOne {
            joinedOne = false
            search: for i in parts.indices {
                for j in parts.indices where j > i {
                    if let joined = joined(parts[i].candidate, parts[j].candidate) {
                        parts[i] = (joined, parts[i].score + parts[j].score)
                        parts.remove(at: j)
                        joinedOne = true
                        break search
                    }
                }
            }
        }
        return parts
    }

    /// The two as one candidate, when they run the same way (within 6°), lie on one line (the shorter's centre
    /// within half the thicker's bars of the longer's axis) and are at most `collinearGapModules` apart.
    static func joined(_ first: Candidate, _ second: Candidate) -> Candidate? {
        let (a, b) = first.length >= second.length ? (first, second) : (second, first)
        var turn = abs(a.degrees - b.degrees).truncatingRemainder(dividingBy: 180)
        if turn > 90 { turn = 180 - turn }
        guard turn < 6 else { return nil }
        let angle = a.degrees * .pi / 180, ux = cos(angle), uy = sin(angle)
        let dx = b.centerX - a.centerX, dy = b.centerY - a.centerY
        let along = dx * ux + dy * uy, across = -dx * uy + dy * ux
        let module = max(a.module, b.module)
        guard abs(across) < max(a.thickness, b.thickness) / 2,
            abs(along) - (a.length + b.length) / 2 < collinearGapModules * module
        else { return nil }
        // The union of the two extents along the longer's axis, its centre on the line between their centres.
        let low = min(-a.length / 2, along - b.length / 2), high = max(a.length / 2, along + b.length / 2)
        let middle = (low + high) / 2, share = b.length / (a.length + b.length)
        let offset = across * share
        let union = PixelRect(
            x: min(a.bounds.x, b.bounds.x), y: min(a.bounds.y, b.bounds.y),
            width: max(a.bounds.maxX, b.bounds.maxX) - min(a.bounds.x, b.bounds.x),
            height: max(a.bounds.maxY, b.bounds.maxY) - min(a.bounds.y, b.bounds.y))
        return Candidate(
            centerX: a.centerX + middle * ux - offset * uy, centerY: a.centerY + middle * uy + offset * ux, degrees: a.degrees,
            length: high - low, thickness: max(a.thickness, b.thickness), module: a.module * (1 - share) + b.module * share,
            edges: a.edges + b.edges, coherence: a.coherence * (1 - share) + b.coherence * share, bounds: union)
    }
}
