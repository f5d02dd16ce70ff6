import Foundation
import ScandCore

/// A second, independent look at an EAN/UPC read: the frame's own pixels along the code (not the band or crop
/// the decoder read, which may have been turned, enlarged or deblurred) held against the bar pattern of the
/// number read. zxing classifies each character from the widths of its runs, after thresholding; a code with
/// 2 px modules, blurred, faint or turned, can give runs whose widths round to another character on every
/// scan line alike, and a check digit passes one such misread in ten. Here the module pattern is fitted to
/// the luma profile (the code's place, scale, the bend of a can's label, and the blur searched; or, where the
/// bars stretch unevenly, through its characters' edges), and each
/// character's window is compared with every pattern a character could have there: the read agrees with its
/// bars when its own character is favoured in every window (`agreement`) and its quiet zones hold no bar, and is
/// contradicted when another explains a window clearly better (`Detection.barsAgree`; docs/architecture.md, "Why scand
/// trusts a SCAN").
package enum BarPatternCheck {
    /// Samples per pixel along the profile.
    static let resolution = 4.0
    /// Offsets across the bars (pixels) whose profiles are averaged: bars are tall, noise is not.
    static let rows: [Double] = [-4, -2, 0, 2, 4]
    /// The read's own pattern must explain this much of its profile (correlation) for any verdict: below it the
    /// line sampled is not across the code's bars as a pattern (a smear, a fold).
    static let minimumFit = 0.6
    /// Modules of quiet zone looked at either side, after the first: four of the seven that ISO/IEC 15420 asks for
    /// at the least. An EAN-2/EAN-5 add-on begins 7 modules after the code; the fit may be off by half a module
    /// and the blur spreads a bar's edge by about as much.
    static let quietModules = 4.0
    /// How many times another character's residual must be smaller than the read's own to contradict it.
    static let contradiction = 2.0
    /// How much smaller the read's own residual must be than every other character's, in every window, for the
    /// read to agree: a Bayes factor of 3 over the window's nine modules ((1/3)^(2/9) ≈ 0.78), the least that
    /// counts as evidence for it (Kass and Raftery's "positive"); a window weighed between this and
    /// `contradiction` gives no verdict.
    static let agreement = 0.78
    /// A read is contradicted by a character only where its pattern, or the pattern with that character in its
    /// place, explains the profile this well (correlation): below it the fit's own errors (a can's bend not quite
    /// caught, glare over part of the code) are as large as one character's difference from another, and right
    /// reads were contradicted (a UPC-A on a can under glare, fitted at 0.60). There a read no character
    /// contradicts agrees, and one some character does gets no verdict.
    static let fitToWeighCharacters = 0.75
    /// How far across the bars (modules) the quiet zones of a short code are looked at (`verdict`).
    static let acrossModules = 8.0
    /// How much a label round a can squeezes the modules at the code's ends: a module there is `1 − 3·bend` of
    /// one at its middle (x = R·sin φ; up to a third of a turn round the can each way, as `scand bench till`'s
    /// cans and a 37 mm EAN-13 on a 66 mm can).
    static let bends = [0.0, 0.025, 0.05, 0.075]
    /// Where the can's axis may lie along the code, in half-lengths from its middle: a code with an add-on is
    /// printed off the middle of the label round the can (an EAN-5 moves it two-thirds of the way to the end).
    static let axes = [0.0, -0.6, 0.6]

    /// Modules an EAN-2 / EAN-5 add-on adds to a read's extent (with its gap).
    static func addOnModules(_ d: Detection) -> Double { d.addOn.map { $0.count == 2 ? 29 : 56 } ?? 0 }

    /// The luma along a read's bars (`profile(along:modules:in:beside:)`): `values` a sample every
    /// 1/`resolution` pixel, the read starting `start` pixels in and `length` long; `slant` how far its bars move
    /// along it per pixel across.
    struct Profile {
        var values: [Double]
        /// Where the first sample lies along the read's direction (`BarsSpan`'s coordinate).
        var from: Double
        var start: Double
        var length: Double
        var slant: Double
    }

    /// Where a code's modules lie along a profile: module coordinate u (0 at the start guard's first module,
    /// `modules` at the end guard's last) to profile pixels, with a can's bend as a cubic.
    struct Fit {
        var centre: Double
        var width: Double
        var bend: Double
        /// The can's axis, in half-lengths from the code's middle (`axes`).
        var axis = 0.0
        var modules: Int
        var reversed: Bool
        var score = -2.0
        /// Module 0 of this fit is module `offset` of the code's: an add-on's pattern laid on the main number's fit.
        var offset = 0.0
        /// Where the characters' ends were measured (`edgeFit`): the modules lie between them, not on the bend.
        var knots: Knots?
        /// How far (profile pixels) a moving code's bars were smeared along the profile in the exposure
        /// (`BarPatternCheck+Smear`); 0: held still.
        var smear = 0.0

        func x(_ u: Double) -> Double {
            if let knots { return knots.x(u + offset, width: width) }
            let h = Double(modules) / 2, t = (u + offset - h) / h - axis
            return centre + width * ((u + offset - h) - bend * h * (t * t * t + axis * axis * axis))
        }

        /// The module coordinate at profile pixel `x` (Newton's method on `x(_:)`, which rises everywhere).
        func u(_ x: Double) -> Double {
            if let knots { return knots.u(x, width: width) - offset }
            let h = Double(modules) / 2
            var u = h + (x - centre) / width - offset
            for _ in 0..<3 {
                let t = (u + offset - h) / h - axis, slope = width * (1 - 3 * bend * t * t)
                guard slope > 0 else { break }
                u -= (self.x(u) - x) / slope
            }
            return u
        }
    }

    /// Whether `d`'s main number is contradicted by its bars in `image`: nil when it cannot be checked (another
    /// format, a code partly outside the image, a profile without contrast or that its own pattern does not fit).
    static func contradicts(_ d: Detection, in image: LumaView) -> Bool? { verdict(d, in: image).main }

    /// Whether the bars contradict a read's main number, and its add-on (each nil when not checked).
    package struct Verdict: Equatable {
        package var main: Bool?
        package var addOn: Bool?
    }

    /// `d`'s main number held against its bars in `image`, then its add-on (when the main number agrees): the
    /// add-on's pattern placed 7–12 modules after the code (ISO/IEC 15420's gap) on the main number's fit, its
    /// characters weighed as the main number's are.
    package static func verdict(_ d: Detection, in image: LumaView) -> Verdict {
        guard let pattern = EANPattern(d), let profile = profile(along: d, modules: pattern.modules.count, in: image) else { return Verdict() }
        let laidForward = pattern.modules, laidBackward = Array(pattern.modules.reversed())
        guard var (fit, bend) = bestFit(pattern: pattern, read: d, profile: profile) else { return Verdict() }
        let laid = fit.reversed ? laidBackward : laidForward
        // The quiet zones of a short code (UPC-E, EAN-8): `quietModules` either side hold no bar. Such a number read
        // from part of a longer code's bars (an EAN-13's, a UPC-A's) has bars there, faint ones under glare too: the
        // profile there may not vary by half the code's own contrast (its spaces' grey against its bars'), whatever
        // its level. The module next to the code is left out: the blur spreads its first and last bar into it. An
        // EAN-13's or UPC-A's are not looked at: no longer code holds one, and packs print digits beside their
        // guards (a UPC-A's first and last).
        let means = moduleMeans(profile.values, fit, from: 0, count: laid.count)
        func contrastOf(_ means: [Double]) -> Double? { fit.smear > 0 ? smearedContrast(laid, means, fit: fit) : Self.contrast(laid, means) }
        guard let contrast = contrastOf(means) else { return Verdict() }
        // A quiet zone the image cuts off is not looked at, but one of the two must be.
        if d.format == .ean8 || d.format == .upcE {
            guard let zones = quietZonesHoldBars(profile.values, fit: fit, contrast: contrast) else { return Verdict() }
            if zones { return Verdict(main: true) }
            // The same across the bars' height: a line along a turned code leaves it through its top or bottom
            // edge, and past that edge it sees the label's light margin where the code's own bars go on lower
            // down (the till bench's EAN-13s turned 20–40°, read as a UPC-E of their left half on such a line
            // and agreeing with it there). Every line across the code at another height, moved along by the
            // bars' slant, whose characters' bars fit the read's about as well as its own line does (not lines below
            // them, where a UPC-E prints its number system and check digits beside its guards, in its quiet zones),
            // must have its quiet zones clear too.
            let characters = pattern.characters.flatMap { ch in
                let first = fit.reversed ? laid.count - ch.start - 7 : ch.start
                return Array(first..<(first + 7))
            }
            let smeared = template(laid, fit: fit), template = characters.map { smeared[$0] }
            let own = correlation(characters.map { means[$0] }, template)
            // Within `acrossModules` of the read's line: a line leaving through the bars' edge sees another
            // code's bars in its zone once it is as far inside as the zone is long times the slant (at 40°, about
            // five modules); lines further off reach print above or below the code.
            let step = max(2, 1.5 * fit.width)
            for offset in stride(from: step, through: min(profile.length / 2, acrossModules * fit.width), by: step).flatMap({ [$0, -$0] }) {
                guard let line = self.profile(along: d, modules: laid.count, in: image, beside: (profile, offset)) else { continue }
                let means = moduleMeans(line.values, fit, from: 0, count: laid.count)
                guard correlation(characters.map { means[$0] }, template) >= max(minimumFit, 0.8 * own) else { continue }
                if let contrast = contrastOf(means), quietZonesHoldBars(line.values, fit: fit, contrast: contrast) == true {
                    return Verdict(main: true)
                }
            }
        }
        // The blur: the Gaussian (in modules) under which the read's own pattern best matches the whole profile,
        // and with it the smear of a moving code, about the decoder's guess.
        let whole = 0..<laid.count
        guard
            // Each pair's fit computed once (the comparison would compute both sides at every step).
            let (blur, smear, _) = [0.2, 0.35, 0.5, 0.65, 0.8].flatMap({ b in smears(about: d.smear).map { (b, $0) } }).map({ pair in
                var f = fit
                f.smear = pair.1
                return (pair.0, pair.1, fitted(laid, window: whole, shift: 0, blur: pair.0, fit: f, profile: profile.values))
            }).max(by: { $0.2 < $1.2 })
        else { return Verdict() }
        fit.smear = smear
        bend?.smear = smear
        let weighing = weigh(pattern, laid: laid, fit: fit, blur: blur, profile: profile.values)
        if case .contradicted(let other) = weighing {
            return fitsWell(other, fit: fit, profile: profile.values) || fit.score >= fitToWeighCharacters ? Verdict(main: true) : Verdict()
        }
        // A window another character explains a little better withholds the agreement where the read's pattern fits
        // well enough to weigh characters (`fitToWeighCharacters`); on a looser fit that difference is within the
        // fit's own errors (real photos' EAN-13s and UPC-As held still, at 0.73, their best windows' others at 0.76
        // to 0.91 of their own residual).
        // Under a smear a loose fit agrees only by its characters, too: the read was made of pixels the decoder
        // invented, and the raised contradiction (`evidence(_:)`) would let a wrong one through as undecided.
        if weighing == .undecided, fit.score >= fitToWeighCharacters || fit.smear > 0 { return Verdict() }
        guard let addOn = EANPattern.addOn(d) else { return Verdict(main: false) }
        // The add-on lies past the code, where its characters' edges say nothing: it is placed on the bend that
        // fits, which follows a label round a can on past the code (the hard-mix till's seed 11 #75, a shaken
        // UPC-A+5 on a can: its add-on laid on the edges' fit beyond their last knot agreed with a wrong EAN-5).
        return Verdict(main: false, addOn: addOnContradicted(addOn, fit: bend ?? fit, blur: blur, profile: profile.values))
    }

    /// What the characters' windows say of a read: every one favours the read's own character (`agreement`: the
    /// second look reads the same number), one is clearly better explained by another (`contradicted`, with the
    /// read's pattern with that character in its place), or neither.
    enum Weighing: Equatable {
        case agrees
        case undecided
        case contradicted(by: [Bool])
    }

    /// Each character of `pattern` (laid as `laid` on `fit`) weighed against every other character in its window.
    ///
    /// Each character's window (and a module either side): the read's pattern against the same with any other
    /// character there, each at its best of small shifts. Residuals compared as likelihoods under Gaussian noise
    /// with about one independent sample a module (blur ties neighbouring samples): the read is contradicted when
    /// another character's residual is smaller by `contradiction`, a Bayes factor of 20 over the window's nine
    /// modules ((1/2)^(9/2) ≈ 1/22). It agrees only where its own character is favoured over every other in
    /// every window (`agreement`): a window another character explains about as well is no second look that
    /// agreed (the till bench's UPC-A 412541731747, 2 px and turned 29°, read as 412541131141: its 7s as 1s,
    /// whose bars differ in width alone, weighed at 0.23–0.26 of the 1s' residual in two frames and at 0.53 in a
    /// third, which agreed; 334588874754 on a can as 334588214154, its 8 as a 2 at 0.47–1.03 frame by frame,
    /// agreed in the frame at 1.03).
    static func weigh(_ pattern: EANPattern, laid: [Bool], fit: Fit, blur: Double, profile values: [Double]) -> Weighing {
        var undecided = false
        let (agreement, contradiction) = evidence(fit)
        for ch in pattern.characters {
            let first = fit.reversed ? laid.count - ch.start - 7 : ch.start
            let window = max(0, first - 1)..<min(laid.count, first + 8)
            func placed(_ p: [Bool]) -> [Bool] {
                var modules = laid
                let shown = fit.reversed ? Array(p.reversed()) : p
                for k in 0..<7 { modules[first + k] = shown[k] }
                return modules
            }
            func residual(_ p: [Bool], shifts: [Double]) -> (value: Double, shift: Double) {
                let modules = placed(p)
                let best =
                    shifts.map { ($0, fitted(modules, window: window, shift: $0, blur: blur, fit: fit, profile: values)) }
                    .max { $0.1 < $1.1 } ?? (0, 0)
                return (1 - best.1 * best.1, best.0)
            }
            // The window's own place: where the read's pattern fits it best, within half a module of the whole
            // fit (a can's label or a print's stretch can move a character's bars that far); the others are
            // weighed around the same place, and around the whole fit's (a wrong character fits best moved off
            // its bars' place, where the right one would not be looked for).
            let own = residual(ch.choices[ch.ownIndex], shifts: Array(stride(from: -0.5, through: 0.5, by: 0.125)))
            let near = [own.shift - 0.125, own.shift, own.shift + 0.125] + (abs(own.shift) > 0.25 ? [-0.125, 0, 0.125] : [])
            for (i, p) in ch.choices.enumerated() where i != ch.ownIndex {
                let other = residual(p, shifts: near).value
                if own.value > contradiction * other { return .contradicted(by: placed(p)) }
                if own.value > agreement * other { undecided = true }
            }
        }
        return undecided ? .undecided : .agrees
    }

    /// Whether `laid` (a pattern with another character where the read had its own) explains the profile as a
    /// whole at least `fitToWeighCharacters`: only then is the read contradicted.
    static func fitsWell(_ laid: [Bool], fit: Fit, profile values: [Double]) -> Bool {
        correlation(moduleMeans(values, fit, from: 0, count: laid.count), template(laid, fit: fit)) >= fitToWeighCharacters
    }

    /// Whether the bars after the main number (before it, read backwards) contradict the add-on `pattern`: nil
    /// when its pattern fits nowhere in the gap's range (`minimumFit`), as when the add-on lies past the image.
    static func addOnContradicted(_ pattern: EANPattern, fit: Fit, blur: Double, profile values: [Double]) -> Bool? {
        let n = pattern.modules.count, laid = fit.reversed ? Array(pattern.modules.reversed()) : pattern.modules
        var best: (fit: Fit, score: Double)?
        for gap in stride(from: 6.5, through: 12.5, by: 0.25) {
            var f = fit
            f.offset = fit.reversed ? -gap - Double(n) : Double(fit.modules) + gap
            guard f.x(0) >= 0, Int(f.x(Double(n)) * resolution) < values.count - 1 else { continue }
            let score = correlation(moduleMeans(values, f, from: 0, count: n), template(laid, fit: f))
            if best == nil || score > best!.score { best = (f, score) }
        }
        guard let (f, score) = best, score >= minimumFit else { return nil }
        if n == 20, addOnEndHoldsBars(laid, fit: f, profile: values) == true { return true }
        switch weigh(pattern, laid: laid, fit: f, blur: blur, profile: values) {
        case .agrees: return false
        case .undecided: return score >= fitToWeighCharacters || f.smear > 0 ? nil : false
        case .contradicted(let other): return score >= fitToWeighCharacters || fitsWell(other, fit: f, profile: values) ? true : nil
        }
    }

    /// The luma along the read's bars, from 8 modules before its start to 8 after its end, `resolution` samples a
    /// pixel, summed over `rows`: each line beside the read's moved along by the lag that best matches the
    /// read's own (a scan line crosses a turned code's bars at a slant, so a line beside it sees them shifted).
    ///
    /// `beside`: the same samples on lines `height` pixels across from that profile's, each moved along by its
    /// slant instead of by a lag of its own: the same bars at the same places, on another line across them (nil
    /// where those lines leave the image).
    static func profile(along d: Detection, modules: Int, in image: LumaView, beside: (Profile, height: Double)? = nil) -> Profile? {
        let span = BarsSpan(d.corners)
        let widest = span.length / Double(modules)
        guard span.length / (Double(modules) + addOnModules(d)) >= 0.8 else { return nil }
        let height = beside?.height ?? 0, slant = beside?.0.slant ?? 0
        func point(_ a: Double, _ c: Double) -> Point { span.point(a + slant * (height + c), span.middle + height + c) }
        let from: Double, count: Int
        if let (like, _) = beside {
            (from, count) = (like.from, like.values.count)
        } else {
            var a = span.start - 8 * widest, b = span.end + 8 * widest
            guard (b - a) * resolution < 40_000 else { return nil }
            // Cut where the outer lines leave the image (a photo cropped close, a code at the frame's edge, its
            // quiet zone cut off): the read itself must be in it.
            func inside(_ a: Double) -> Bool {
                [rows.min() ?? 0, rows.max() ?? 0].allSatisfy { c in
                    let p = point(a, c)
                    return image.sample(p.x, p.y) != nil
                }
            }
            let step = 1 / resolution
            guard inside(span.start), inside(span.end) else { return nil }
            while !inside(a) { a += step }
            while !inside(b) { b -= step }
            (from, count) = (a, Int(((b - a) * resolution).rounded(.down)) + 1)
        }
        guard count > 32 else { return nil }
        func line(_ c: Double) -> [Double]? {
            var out = [Double](repeating: 0, count: count)
            for i in 0..<count {
                let p = point(from + Double(i) / resolution, c)
                guard let v = image.sample(p.x, p.y) else { return nil }
                out[i] = v
            }
            return out
        }
        guard var profile = line(0) else { return nil }
        let centre = profile
        // Each line's lag, and from them the bars' slant: the least-squares slope of lag (pixels) on offset.
        var lagTimesOffset = 0.0, offsetSquared = 0.0
        for c in rows where c != 0 {
            guard let l = line(c) else { return nil }
            var bestLag = 0
            if beside == nil {
                let reach = Int(abs(c) * resolution)
                var bestScore = -2.0
                for lag in -reach...reach {
                    let lo = max(0, -lag), hi = min(count, count - lag)
                    guard hi - lo > count / 2 else { continue }
                    let score = correlation(Array(centre[lo..<hi]), Array(l[(lo + lag)..<(hi + lag)]))
                    if score > bestScore { (bestLag, bestScore) = (lag, score) }
                }
                lagTimesOffset += Double(bestLag) / resolution * c
                offsetSquared += c * c
            }
            for i in 0..<count { profile[i] += l[min(max(i + bestLag, 0), count - 1)] }
        }
        guard let lo = profile.min(), let hi = profile.max(), hi - lo > Double(rows.count) * 8 else { return nil }
        return Profile(
            values: profile, from: from, start: span.start - from, length: span.length,
            slant: beside?.0.slant ?? (offsetSquared > 0 ? lagTimesOffset / offsetSquared : 0))
    }

    /// The code's contrast on a profile: its spaces' mean module grey less its bars' (`means` of the modules
    /// `laid`); nil when it is not positive.
    static func contrast(_ laid: [Bool], _ means: [Double]) -> Double? {
        let bars = zip(laid, means).filter(\.0).map(\.1), spaces = zip(laid, means).filter { !$0.0 }.map(\.1)
        guard !bars.isEmpty, !spaces.isEmpty else { return nil }
        let contrast = spaces.reduce(0, +) / Double(spaces.count) - bars.reduce(0, +) / Double(bars.count)
        return contrast > 0 ? contrast : nil
    }

    /// Whether either quiet zone of a short code holds a bar: `quietModules` beyond the module next to the code
    /// where the profile falls by more than half the code's `contrast` and rises again. nil when the image cuts
    /// both off.
    static func quietZonesHoldBars(_ values: [Double], fit: Fit, contrast: Double) -> Bool? {
        let m = Double(fit.modules)
        var zonesSeen = 0
        // Each zone, and the same reaching a module and a half further (still short of where an add-on begins, 7
        // modules after the code): an EAN-13's right half always shows two dark runs there.
        let smeared = smearModules(fit) / 2
        for (zone, wider) in [quietZone(before: true, modules: m, smeared: smeared), quietZone(before: false, modules: m, smeared: smeared)] {
            guard let holds = zoneHoldsBars(values, fit: fit, zone: zone, wider: wider, contrast: contrast) else { continue }
            zonesSeen += 1
            if holds { return true }
        }
        return zonesSeen == 0 ? nil : false
    }

    /// The quiet zone before or after a pattern of `m` modules, in its modules: `quietModules` beyond the module
    /// next to it (the blur spreads its first and last bar into that one), and the same reaching a module and a
    /// half further (`zoneHoldsBars`' `wider`); all of it `smeared` modules further out, where a moving code's
    /// smear spreads its guard bars (half the smear's length either way).
    static func quietZone(before: Bool, modules m: Double, smeared: Double = 0) -> (zone: ClosedRange<Double>, wider: ClosedRange<Double>) {
        let k = 1 + smeared
        return before
            ? ((-k - quietModules)...(-k), (-k - 1.5 - quietModules)...(-k))
            : ((m + k)...(m + k + quietModules), (m + k)...(m + k + 1.5 + quietModules))
    }

    /// Whether the modules `zone` of `fit` hold a bar: light, then darker by half `contrast`, then light again; or,
    /// over `wider`, two such dark runs. Not a step: a label's edge or a page beside it cut across the zone is no
    /// bar of another code. nil when the zone lies outside the profile.
    static func zoneHoldsBars(
        _ values: [Double], fit: Fit, zone: ClosedRange<Double>, wider: ClosedRange<Double>, contrast: Double
    ) -> Bool? {
        let a = Int((fit.x(zone.lowerBound) * resolution).rounded(.up)), b = Int((fit.x(zone.upperBound) * resolution).rounded(.down))
        guard a >= 0, b < values.count, a < b else { return nil }
        let near = Array(values[a...b])
        guard let lo = near.min(), let i = near.firstIndex(of: lo) else { return nil }
        let light = lo + contrast / 2
        if near[..<i].contains(where: { $0 > light }) && near[i...].contains(where: { $0 > light }) { return true }
        let c = max(0, Int((fit.x(wider.lowerBound) * resolution).rounded(.up))),
            d = min(values.count - 1, Int((fit.x(wider.upperBound) * resolution).rounded(.down)))
        guard c < d else { return false }
        let span = values[c...d], dark = (span.max() ?? 0) - contrast / 2
        let runs = zip(span.dropFirst(), span).count { now, before in now < dark && before >= dark } + (span.first.map { $0 < dark ? 1 : 0 } ?? 0)
        return runs >= 2
    }

    /// Whether bars go on after an EAN-2 add-on laid as `laid` on `fit` (before it, read backwards), where its
    /// quiet zone must be: the first two characters of an EAN-5 are an EAN-2 wherever their parities are one's
    /// (one EAN-5 in four), and an EAN-5's separator and third character follow them (the hard-mix till with
    /// clutter, seed 42: a book's EAN-5 54462 read as the EAN-2 54 in the frames of a swipe, whose bars agreed
    /// with 54 and said nothing of what came after it). nil when the zone lies outside the profile.
    static func addOnEndHoldsBars(_ laid: [Bool], fit: Fit, profile values: [Double]) -> Bool? {
        let n = Double(laid.count)
        guard let contrast = contrast(laid, moduleMeans(values, fit, from: 0, count: laid.count)) else { return nil }
        let (zone, wider) = quietZone(before: fit.reversed, modules: n, smeared: smearModules(fit) / 2)
        return zoneHoldsBars(values, fit: fit, zone: zone, wider: wider, contrast: contrast)
    }

    /// The pattern's best fit to the profile, forwards or backwards (a read's direction is zxing's scan's): a
    /// coarse search over the place (a quarter module at a time, two modules either way), the scale (±5%) and the
    /// bend, then a finer one around the best; and the fit through the characters' edges (`edgeFit`), which follows
    /// bars that stretch unevenly; with the best bend that fits, if any. nil when even the best does not fit
    /// (`minimumFit`).
    static func bestFit(pattern: EANPattern, read d: Detection, profile: Profile) -> (best: Fit, bend: Fit?)? {
        let m = Double(pattern.modules.count)
        // The read's extent is the main number's, or the main number's and its add-on's (the add-on after it).
        var extents = [(length: profile.length, modules: m)]
        if d.addOn != nil { extents.append((profile.length * m / (m + addOnModules(d)), m)) }
        var best: Fit?
        func consider(_ f: Fit) {
            let modules = f.reversed ? Array(pattern.modules.reversed()) : pattern.modules
            var g = f
            g.smear = d.smear
            g.score = correlation(moduleMeans(profile.values, g, from: 0, count: modules.count), template(modules, fit: g))
            if best == nil || g.score > best!.score { best = g }
        }
        for reversed in [false, true] {
            for extent in extents {
                for bend in bends {
                    for axis in bend == 0 ? [0] : axes {
                        let base = extent.length / (m * (1 - bend))
                        // The main number's middle: from the read's start forwards; backwards its add-on comes first.
                        let centre = reversed ? profile.start + profile.length - extent.length / 2 : profile.start + extent.length / 2
                        for s in stride(from: -0.05, through: 0.0501, by: 0.02) {
                            for k in stride(from: -2.0, through: 2.0, by: 0.25) {
                                consider(
                                    Fit(
                                        centre: centre + k * base, width: base * (1 + s), bend: bend, axis: axis, modules: pattern.modules.count,
                                        reversed: reversed))
                            }
                        }
                    }
                }
            }
        }
        guard let coarse = best else { return nil }
        for ds in [-0.01, 0, 0.01] {
            for dk in [-0.125, 0, 0.125] {
                for db in [-0.0125, 0, 0.0125] where coarse.bend + db >= 0 {
                    var f = coarse
                    (f.centre, f.width, f.bend) = (coarse.centre + dk * coarse.width, coarse.width * (1 + ds), coarse.bend + db)
                    consider(f)
                }
            }
        }
        let bend = best.flatMap { $0.score >= minimumFit ? $0 : nil }
        // Bars that bend and stretch unevenly (a crumpled bag, film wrap), placed from their characters' edges:
        // EAN-13, UPC-A and EAN-8, not UPC-E. A short code's verdict rests on its quiet zones, where a UPC-E prints
        // its number system and check digits beside its guards; a fit that places it better than a bend (quagga2's
        // UPC-E turned 60°, which no bend fitted) sees those digits as bars beside it and refuses a right read. An
        // EAN-8 prints its digits inside its guards, under its bars. Nor under a smear of a moving code, which
        // merges a character's thin runs with their neighbours: its edges are not there to be found.
        let n = pattern.modules.count, starts = pattern.characters.map(\.start)
        for reversed in [false, true] where (n == 95 || n == 67) && d.smear == 0 {
            for extent in extents {
                let start = reversed ? profile.start + profile.length - extent.length : profile.start
                if let f = edgeFit(
                    laid: reversed ? Array(pattern.modules.reversed()) : pattern.modules, characters: reversed ? starts.map { n - $0 - 7 } : starts,
                    reversed: reversed, span: (start, extent.length), profile: profile)
                {
                    consider(f)
                }
            }
        }
        guard let fit = best, fit.score >= minimumFit else { return nil }
        return (fit, bend)
    }

    /// The correlation of `profile` with `modules` (bars dark) blurred by a Gaussian of `blur` modules, over the
    /// modules `window` of `fit` moved by `shift` modules.
    static func fitted(_ modules: [Bool], window: Range<Int>, shift: Double, blur: Double, fit: Fit, profile: [Double]) -> Double {
        let (kernel, box) = smoothing(sigma: blur * fit.width * resolution, smear: fit.smear * resolution)
        let radius = kernel.count / 2 + box / 2
        let a = Int((fit.x(Double(window.lowerBound) + shift) * resolution).rounded(.up))
        let b = Int((fit.x(Double(window.upperBound) + shift) * resolution).rounded(.down))
        guard a >= 0, b < profile.count, b - a > 4 else { return 0 }
        // Each sample's module (bar or space) over the window and the kernel's reach, smeared, then blurred.
        let ideal = boxed(
            ((a - radius)...(b + radius)).map { i -> Double in
                let m = Int((fit.u(Double(i) / resolution) - shift).rounded(.down))
                return m >= 0 && m < modules.count && modules[m] ? -1 : 1
            }, box: box)
        var model = [Double](repeating: 0, count: b - a + 1)
        for i in 0...(b - a) {
            var v = 0.0
            for (j, k) in kernel.enumerated() { v += k * ideal[i + j] }
            model[i] = v
        }
        return correlation(model, Array(profile[a...b]))
    }

    /// The mean of `profile` over each of `count` modules from module `first` of `fit` (three samples a module,
    /// its edges left out: that is where blur mixes neighbours).
    static func moduleMeans(_ profile: [Double], _ fit: Fit, from first: Int, count: Int) -> [Double] {
        (0..<count).map { k in
            var sum = 0.0
            for f in [0.3, 0.5, 0.7] {
                let x = fit.x(Double(first + k) + f) * resolution
                let i = min(max(Int(x), 0), profile.count - 2), t = min(max(x - Double(i), 0), 1)
                sum += profile[i] * (1 - t) + profile[i + 1] * t
            }
            return sum / 3
        }
    }

    static func correlation(_ x: [Double], _ y: [Double]) -> Double {
        let n = Double(x.count)
        guard x.count == y.count, n > 1 else { return 0 }
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for i in x.indices {
            let a = x[i] - mx, b = y[i] - my
            sxy += a * b
            sxx += a * a
            syy += b * b
        }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }
}
