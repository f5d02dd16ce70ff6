import Foundation
extension BarPatternCheck {
    /// Where the bars of a code whose modules are not evenly spaced lie (a crumpled bag, film wrap: its modules
    /// stretch and squeeze along the code in a way no can's bend describes): each symbol character's ends, the
    /// guards' included, measured as edges in the profile, with straight lines between them.
    ///
    /// Every EAN/UPC character is 7 modules of 4 runs, and the guards are fixed, so the runs a code has, and which
    /// of its edges end a character, are the same whatever its digits: these knots come from the bars alone and
    /// favour no number, the read's or another's (each character's window is then weighed as on any fit). A narrow
    /// run that blur or a crease merged into its neighbours takes two edges with it (`lostRuns`); more edges than
    /// the code's (print beside it), or more than two runs lost, give nil, and so does a character squeezed or
    /// stretched past half or twice the code's mean module.
    static func edgeFit(laid: [Bool], characters: [Int], reversed: Bool, span: (start: Double, length: Double), profile: Profile) -> Fit? {
        let n = laid.count
        guard n > 8, span.length > 0 else { return nil }
        let module = span.length / Double(n) * resolution  // samples
        guard module >= 2 else { return nil }
        // The pattern's edges in modules: the first bar's start, each change, the last bar's end.
        var patternEdges = [0.0]
        for i in 1..<n where laid[i] != laid[i - 1] { patternEdges.append(Double(i)) }
        patternEdges.append(Double(n))
        let values = profile.values
        let lo = max(0, Int(((span.start * resolution) - module).rounded(.down)))
        let hi = min(values.count - 1, Int(((span.start + span.length) * resolution + module).rounded(.up)))
        guard hi - lo > n else { return nil }
        let threshold = localMeans(values, radius: Int(3.5 * module))
        // Crossings of the local mean from the first light-to-dark one, each placed between its two samples.
        var edges: [Double] = []
        var dark = values[lo] < threshold[lo]
        if dark { edges.append(Double(lo)) }  // a bar the image's edge cuts: its first edge is where the image ends
        for i in (lo + 1)...hi {
            let d = values[i] < threshold[i]
            guard d != dark else { continue }
            let a = values[i - 1] - threshold[i - 1], b = values[i] - threshold[i]
            edges.append(Double(i - 1) + (a == b ? 0.5 : a / (a - b)))
            dark = d
        }
        if dark { edges.append(Double(hi)) }
        // Knots at the characters' and guards' ends: the edges every number of this format has there, at the same
        // place in the list of edges whatever the digits (each character is 4 runs).
        let ends = Set(characters.flatMap { [Double($0), Double($0 + 7)] } + [0, Double(n)])
        let knots = patternEdges.enumerated().filter { ends.contains($0.element) }.map { (index: $0.offset, u: $0.element) }
        let missing = patternEdges.count - edges.count
        guard missing >= 0, missing % 2 == 0, missing / 2 <= Self.lostRuns, knots.count >= 3 else { return nil }
        guard let (knotU, knotX) = Self.knotsWithLostRuns(missing / 2, knots: knots, edges: edges) else { return nil }
        let mean = (knotX[knotX.count - 1] - knotX[0]) / (knotU[knotU.count - 1] - knotU[0])
        guard knotU.count >= 3, mean > 0 else { return nil }
        for i in 1..<knotU.count {
            let width = (knotX[i] - knotX[i - 1]) / (knotU[i] - knotU[i - 1])
            guard width >= mean / 2, width <= mean * 2 else { return nil }
        }
        let first = knotX[0] - knotU[0] * mean, last = knotX[knotX.count - 1] + (Double(n) - knotU[knotU.count - 1]) * mean
        var fit = Fit(centre: (first + last) / 2, width: mean, bend: 0, modules: n, reversed: reversed)
        fit.knots = Fit.Knots(u: knotU, x: knotX)
        return fit
    }

    /// At most this many narrow runs lost to blur or a crease: each costs the fit the two knots around its
    /// character, and a third would leave too few to follow two waves along the code.
    static let lostRuns = 2

    /// The knots (module coordinates and profile pixels) when `lost` runs are missing from `edges`: each lost run
    /// lies between two neighbouring knots and shifts every later knot's edge by two; the knots around it are left
    /// out (the lost run may be a character's first or last). Of the places the losses could be, the one whose
    /// knots give the most even modules (the least change of module width from one stretch to the next: a crease
    /// stretches modules smoothly, a misplaced knot by whole runs), which again favours no number.
    static func knotsWithLostRuns(_ lost: Int, knots: [(index: Int, u: Double)], edges: [Double]) -> ([Double], [Double])? {
        let stretches = knots.count - 1
        var places: [[Int]] = [[]]
        for _ in 0..<lost { places = places.flatMap { p in ((p.last ?? 0)..<stretches).map { p + [$0] } } }
        var best: (unevenness: Double, u: [Double], x: [Double])?
        for place in places {
            var u: [Double] = [], x: [Double] = [], possible = true
            for (k, knot) in knots.enumerated() where !place.contains(k) && !place.contains(k - 1) {
                // (More runs lost in a stretch than it has leave its edges past the list's end: no such place.)
                let edge = knot.index - 2 * place.filter { $0 < k }.count
                guard edges.indices.contains(edge) else {
                    possible = false
                    break
                }
                u.append(knot.u)
                x.append(edges[edge] / resolution)
            }
            guard possible, u.count >= 3 else { continue }
            var widths: [Double] = []
            for i in 1..<u.count { widths.append((x[i] - x[i - 1]) / (u[i] - u[i - 1])) }
            guard widths.allSatisfy({ $0 > 0 }) else { continue }
            var unevenness = 0.0
            for i in 1..<widths.count { unevenness = max(unevenness, abs(log(widths[i] / widths[i - 1]))) }
            if best == nil || unevenness < best!.unevenness { best = (unevenness, u, x) }
        }
        return best.map { ($0.u, $0.x) }
    }

    /// Each sample's mean over the `radius` samples either side (fewer at the ends).
    static func localMeans(_ values: [Double], radius: Int) -> [Double] {
        var prefix = [0.0]
        prefix.reserveCapacity(values.count + 1)
        for v in values { prefix.append(prefix[prefix.count - 1] + v) }
        return values.indices.map { i in
            let a = max(0, i - radius), b = min(values.count, i + radius + 1)
            return (prefix[b] - prefix[a]) / Double(b - a)
        }
    }
}

extension BarPatternCheck.Fit {
    /// Module coordinates and the profile pixels they lie at, rising; between them the modules are even, and
    /// past either end they keep the code's mean width.
    struct Knots {
        var u: [Double]
        var x: [Double]

        func x(_ u: Double, width: Double) -> Double {
            if u <= self.u[0] { return x[0] - (self.u[0] - u) * width }
            if u >= self.u[self.u.count - 1] { return x[x.count - 1] + (u - self.u[self.u.count - 1]) * width }
            var i = 1
            while self.u[i] < u { i += 1 }
            let t = (u - self.u[i - 1]) / (self.u[i] - self.u[i - 1])
            return x[i - 1] + t * (x[i] - x[i - 1])
        }

        func u(_ x: Double, width: Double) -> Double {
            if x <= self.x[0] { return u[0] - (self.x[0] - x) / width }
            if x >= self.x[self.x.count - 1] { return u[u.count - 1] + (x - self.x[self.x.count - 1]) / width }
            var i = 1
            while self.x[i] < x { i += 1 }
            let t = (x - self.x[i - 1]) / (self.x[i] - self.x[i - 1])
            return u[i - 1] + t * (u[i] - u[i - 1])
        }
    }
}
