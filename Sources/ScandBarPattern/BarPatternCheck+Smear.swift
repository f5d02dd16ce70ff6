import Foundation
import ScandCore

/// A code swiped past the camera moves a few pixels in the exposure: its profile is its bars blurred by a box of
/// that length along the motion, projected on the code's axis (a swipe's speed is even over a millisecond or
/// two). The decoder read it from a band with a guess at that smear undone (`Detection.smear`), pixels it made
/// up; the second look does not undo it, it predicts the frame's own pixels from the number's pattern under the
/// same box (and the lens's Gaussian), and weighs each character as on any frame. A smear ties the profile's
/// samples over its length, so a window holds fewer independent samples and the same residuals are weaker
/// evidence: the thresholds are raised to the power of the smear in modules (`evidence(_:)`).
extension BarPatternCheck {
    /// The smears (pixels along the profile) searched about the decoder's guess, which is one of a few lengths
    /// along the band's rows (`LinearLocator.smearLengths`): the motion lies at an angle to the code's axis.
    static func smears(about guess: Double) -> [Double] {
        guard guess > 0 else { return [0] }
        return [0.7, 0.85, 1, 1.15, 1.3].map { $0 * guess }
    }

    /// A fit's smear in modules: how many modules one sample of the profile averages over beyond the lens's blur.
    static func smearModules(_ fit: Fit) -> Double { fit.width > 0 ? fit.smear / fit.width : 0 }

    /// What each of `laid`'s modules (bars −1, spaces 1) averages to on `fit` under its smear: the pattern
    /// averaged over a box of the smear's length about each module's middle (modules beyond the pattern are
    /// quiet zone). The pattern itself without a smear.
    static func template(_ laid: [Bool], fit: Fit) -> [Double] {
        let plain = laid.map { $0 ? -1.0 : 1.0 }
        guard fit.smear > 0 else { return plain }
        return (0..<laid.count).map { k in
            // The box in modules, from the module's own width on the fit (a can's bend narrows them at the ends).
            let local = fit.x(Double(k) + 1) - fit.x(Double(k))
            guard local > 0 else { return plain[k] }
            let half = fit.smear / local / 2, a = Double(k) + 0.5 - half, b = Double(k) + 0.5 + half
            var sum = 0.0
            for m in Int(a.rounded(.down))...Int(b.rounded(.down)) {
                let overlap = min(b, Double(m + 1)) - max(a, Double(m))
                guard overlap > 0 else { continue }
                sum += overlap * (m >= 0 && m < laid.count && laid[m] ? -1 : 1)
            }
            return sum / (b - a)
        }
    }

    /// The profile's smoothing in samples: a Gaussian of `sigma` samples (normalised to sum 1), and a box of
    /// `smear` samples rounded to an odd count (1: none).
    static func smoothing(sigma: Double, smear: Double) -> (gaussian: [Double], box: Int) {
        let radius = Int((3 * sigma).rounded(.up))
        let gaussian = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = gaussian.reduce(0, +)
        return (gaussian.map { $0 / total }, smear >= 1 ? 2 * Int((smear / 2).rounded()) + 1 : 1)
    }

    /// `values` averaged over each run of `box` of them (`box` odd): `box − 1` fewer values, each the mean about
    /// its own middle. A running sum: a smear costs the same whatever its length.
    static func boxed(_ values: [Double], box: Int) -> [Double] {
        guard box > 1, values.count >= box else { return values }
        var out = [Double](repeating: 0, count: values.count - box + 1)
        var sum = values[0..<box].reduce(0, +)
        out[0] = sum / Double(box)
        for i in 1..<out.count {
            sum += values[i + box - 1] - values[i - 1]
            out[i] = sum / Double(box)
        }
        return out
    }

    /// The code's contrast (its spaces' grey less its bars') from module means under a smear: twice the slope of
    /// `means` on the smeared template (a smear mixes each module with its neighbours, so the plain difference of
    /// the means would understate it by as much); nil when not positive.
    static func smearedContrast(_ laid: [Bool], _ means: [Double], fit: Fit) -> Double? {
        let t = template(laid, fit: fit)
        let n = Double(t.count)
        guard n > 1 else { return nil }
        let mt = t.reduce(0, +) / n, mm = means.reduce(0, +) / n
        var stm = 0.0, stt = 0.0
        for i in t.indices {
            stm += (t[i] - mt) * (means[i] - mm)
            stt += (t[i] - mt) * (t[i] - mt)
        }
        guard stt > 0 else { return nil }
        let contrast = 2 * stm / stt
        return contrast > 0 ? contrast : nil
    }

    /// The thresholds of `weigh` for a fit: `agreement` and `contradiction` are Bayes factors over a window of nine
    /// independent samples (one a module); under a smear of s modules (s > 1) about one in s is independent, so
    /// the same factors ask residual ratios s times as far from 1.
    static func evidence(_ fit: Fit) -> (agreement: Double, contradiction: Double) {
        let s = max(1, smearModules(fit))
        return (pow(agreement, s), pow(contradiction, s))
    }
}
