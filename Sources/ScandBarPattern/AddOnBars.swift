import ScandCore

/// Whether an EAN/UPC code read without an add-on has an add-on's bars printed after it (issue 30, 3): zxing
/// reports the main number alone when the EAN-2/EAN-5 beyond it does not decode on any line (blur, glare, a
/// finger), and the tracker then waits a few frames for one that reads it (`Detection.addOnBarsBeside`).
/// Each of three lines along the read is followed past the end guard: a quiet gap of at least about five
/// modules, then, within the add-on's gap of 7–12 modules, dark bars at an add-on's pitch (an EAN-2 is seven
/// bars of 1–4 modules in 20). A line of printed text can look alike; that only costs a short wait.
package enum AddOnBars {
    /// Modules from the start guard's first bar to the end guard's last.
    static func modules(_ format: BarcodeFormat) -> Double? {
        switch format {
        case .ean13, .upcA: 95
        case .ean8: 67
        case .upcE: 51
        default: nil
        }
    }

    /// `detections` with `addOnBarsBeside` set where most lines along a read without an add-on show an add-on's
    /// bars after it, and `addOnBeyondEdge` where they leave the frame before its place ends.
    /// Each is probed along the outline of its read with the most scan lines among `raw` (the frame's reads
    /// before they were merged): a merged read keeps its first read's outline, which for a tilted code may be a
    /// whole-frame band's horizontal scan line across it, along which no add-on lies.
    package static func mark(_ detections: [Detection], raw: [Detection] = [], in luma: LumaView) -> [Detection] {
        detections.map { d in
            var d = d
            var probe = d
            if let best = raw.filter({ $0.isSameSymbol(as: d) }).max(by: { $0.lineCount < $1.lineCount }) { probe.corners = best.corners }
            let sights = sights(probe, width: luma.width, height: luma.height, luma: luma.pixelOrWhite)
            d.addOnBarsBeside = sights.filter { $0 == .shown }.count >= 2
            d.addOnBeyondEdge = !d.addOnBarsBeside && sights.filter { $0 == .beyondEdge }.count >= 2
            return d
        }
    }

    /// What an add-on's place after the end guard shows on a line along a read.
    enum Sight: Equatable {
        case shown, none
        /// The line leaves the frame before the add-on's place ends: nothing can be told.
        case beyondEdge
    }

    /// What each of the lines along `d` shows where its add-on would be; none for a read that is no EAN/UPC
    /// without an add-on, or that no probe can follow.
    static func sights(_ d: Detection, width: Int, height: Int, luma: (Int, Int) -> UInt8) -> [Sight] {
        guard d.addOn == nil, let count = modules(d.format) else { return [] }
        return lines(along: d, modules: count, width: width, height: height, luma: luma) { lines in
            lines.map { $0.sight() }
        } ?? []
    }

    /// Three lines along a read of `count` modules (its middle and two either side), from its start guard, for
    /// `body`; nil when the read is of a few pixels or of a whole frame per module, no EAN a probe can follow.
    static func lines<T>(
        along d: Detection, modules count: Double, width: Int, height: Int, luma: (Int, Int) -> UInt8, _ body: ([Line]) -> T
    ) -> T? {
        let q = d.corners
        let start = (q.topLeft + q.bottomLeft) * 0.5, end = (q.topRight + q.bottomRight) * 0.5
        let v = end - start
        let length = (v.x * v.x + v.y * v.y).squareRoot()
        let module = length / count
        guard length.isFinite, module >= 0.8, module <= 16 else { return nil }
        let along = v * (1 / length), across = Point(-along.y, along.x)
        let half = max(q.topLeft.distance(to: q.bottomLeft), q.topRight.distance(to: q.bottomRight)) / 2
        let offsets = [-max(2, half * 0.6), 0, max(2, half * 0.6)]
        return withoutActuallyEscaping(luma) { luma in
            body(
                offsets.map { o in
                    Line(origin: start + across * o, along: along, module: module, length: length, width: width, height: height, luma: luma)
                })
        }
    }

    /// One line along a read, sampled bilinearly in the frame.
    struct Line {
        var origin: Point, along: Point
        var module: Double, length: Double
        var width: Int, height: Int
        var luma: (Int, Int) -> UInt8

        /// The luma `t` pixels along the line from the start guard; nil outside the frame.
        func sample(_ t: Double) -> Double? {
            let p = origin + along * t
            guard p.x.isFinite, p.y.isFinite, p.x >= 0, p.y >= 0, p.x <= Double(width - 1), p.y <= Double(height - 1) else { return nil }
            let x0 = Int(p.x), y0 = Int(p.y), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
            let tx = p.x - Double(x0), ty = p.y - Double(y0)
            let top = Double(luma(x0, y0)) * (1 - tx) + Double(luma(x1, y0)) * tx
            let bottom = Double(luma(x0, y1)) * (1 - tx) + Double(luma(x1, y1)) * tx
            return top * (1 - ty) + bottom * ty
        }

        /// Dark (true) or light at each step of `step` pixels from `from` to `to`; nil where the line leaves the frame.
        func bits(from: Double, to: Double, step: Double, threshold: Double) -> [Bool]? {
            var out: [Bool] = []
            for t in stride(from: from, through: to, by: step) {
                guard let l = sample(t) else { return nil }
                out.append(l < threshold)
            }
            return out
        }

        /// Halfway between the main code's own dark and light along the line; nil where they differ by less than a
        /// code's must.
        var codeThreshold: Double? {
            let main = stride(from: 0, through: length, by: module / 2).compactMap(sample)
            guard let lo = main.min(), let hi = main.max(), hi - lo >= 24 else { return nil }
            return (lo + hi) / 2
        }

        func sight() -> Sight {
            // The main code's own dark and light set the threshold.
            guard let threshold = codeThreshold else { return .none }
            let seen = sight(threshold: threshold)
            guard seen == .none else { return seen }
            // Glare over the add-on alone (a shiny pack, a lamp) lifts its bars above the code's threshold: its place
            // is looked at again with its own dark and light, where they differ by as much as a code's must.
            let place = stride(from: length + 1.5 * module, through: length + 33 * module, by: module / 4).compactMap(sample)
            guard let placeLo = place.min(), let placeHi = place.max(), placeHi - placeLo >= 24 else { return seen }
            return sight(threshold: (placeLo + placeHi) / 2)
        }

        /// What the add-on's place shows, dark being under `threshold`.
        func sight(threshold: Double) -> Sight {
            let step = module / 4
            // The gap after the end guard (7–12 modules printed; blur takes a module or so off it).
            guard let gap = bits(from: length + 1.5 * module, to: length + 5 * module, step: step, threshold: threshold) else {
                return .beyondEdge
            }
            guard !gap.contains(true) else { return .none }
            guard let search = bits(from: length + 5 * module, to: length + 14 * module, step: step, threshold: threshold) else {
                return .beyondEdge
            }
            guard let first = search.firstIndex(of: true) else { return .none }
            let from = length + 5 * module + Double(first) * step
            guard let window = bits(from: from, to: from + 19 * module, step: step, threshold: threshold) else { return .beyondEdge }
            // Runs of dark and light across the add-on's first 20 modules: an add-on's bars and spaces are 1–4
            // modules wide, seven bars in an EAN-2 and in an EAN-5's first 20 modules.
            var runs: [(dark: Bool, steps: Int)] = []
            for b in window {
                if let last = runs.last, last.dark == b { runs[runs.count - 1].steps += 1 } else { runs.append((b, 1)) }
            }
            let inner = runs.dropLast()  // the last run may be cut by the window
            let bars = runs.filter(\.dark).count
            return bars >= 5 && inner.allSatisfy { Double($0.steps) * step <= 4.6 * module } ? .shown : .none
        }
    }
}
