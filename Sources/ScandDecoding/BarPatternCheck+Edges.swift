extension BarPatternCheck {
    /// Where the bars of a code whose modules are not evenly spaced lie (a crumpled bag, film wrap: its modules
    /// stretch and squeeze along the code in a way no can's bend describes): each symbol character's ends, the
    /// guards' included, measured as edges in the profile, with straight lines between them.
    ///
    /// Every EAN/UPC character is 7 modules of 4 runs, and the guards are fixed, so the runs a code has, and which
    /// of its edges end a character, are the same whatever its digits: these knots come from the bars alone and
    /// favour no number, the read's or another's (each character's window is then weighed as on any fit). Only
    /// where the profile shows exactly the code's runs between its ends; nil otherwise (a run lost to blur or
    /// glare, print beside the code), and when a character would be squeezed or stretched past half or twice
    /// the code's mean module.
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
        guard edges.count == patternEdges.count else { return nil }
        // Knots at the characters' and guards' ends: the edges every number of this format has there.
        let ends = Set(characters.flatMap { [Double($0), Double($0 + 7)] } + [0, Double(n)])
        var knotU: [Double] = [], knotX: [Double] = []
        for (k, u) in patternEdges.enumerated() where ends.contains(u) {
            knotU.append(u)
            knotX.append(edges[k] / resolution)
        }
        let mean = (knotX[knotX.count - 1] - knotX[0]) / Double(n)
        guard knotU.count >= 3, mean > 0 else { return nil }
        for i in 1..<knotU.count {
            let width = (knotX[i] - knotX[i - 1]) / (knotU[i] - knotU[i - 1])
            guard width >= mean / 2, width <= mean * 2 else { return nil }
        }
        var fit = Fit(centre: (knotX[0] + knotX[knotX.count - 1]) / 2, width: mean, bend: 0, modules: n, reversed: reversed)
        fit.knots = Fit.Knots(u: knotU, x: knotX)
        return fit
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
