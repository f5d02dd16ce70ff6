import ScandCore

/// Which expensive pass a live frame gets on top of the cheap ones: one per frame, in turn, while the
/// decoder keeps within its budget. (What one found is kept up by `TrackedCrops`, not by running it again.)
public struct ExtraPassSchedule: Sendable {
    public enum Kind: Int, Sendable, CaseIterable {
        /// Light-on-dark codes: the cheap passes over the inverted frame (the shim inverts; zxing's own inversion
        /// leaves out linear codes and PDF417).
        case inverted
        /// Linear codes turned by about 90° (the cheap linear pass scans rows only).
        case rotated
        /// zxing's pyramid: codes too large or too blurred for full resolution.
        case downscaled
        /// Linear codes tilted by 20–40°: crops turned upright around code-like patches
        /// (`CodeCandidates.linearPasses`); only while there are such patches.
        case uprightLinear
        /// Small linear codes: those crops enlarged twice, around small patches nothing read.
        case enlargedLinear
        /// The linear formats over the whole region searched harder (every few rows instead of a few near the
        /// middle) and turned: codes the bands' one attempt a row misses. Dear over a 720p frame, so only in a
        /// still scene's round (`still`), where it runs once.
        case harderLinear
    }

    /// How many kinds there are: a code only one of them reads is found within this many frames.
    public static var kinds: Int { Kind.allCases.count }

    struct Extra: Sendable {
        var kind: Kind
        var pass: DecodePass
    }

    /// Last decode without extra passes, and the last with each kind: a kind is added only while a frame
    /// with it fits the budget (a frame over it is a dropped frame at 30 fps); a kind that did not is tried
    /// again after `retryEvery` turns, in case the scene got easier.
    var cheapMilliseconds = 0.0
    private var cost: [Kind: Double] = [:]
    private var skipped: [Kind: Int] = [:]
    static let retryEvery = 30

    mutating func record(milliseconds: Double, extras: Set<Kind>) {
        if extras.isEmpty { cheapMilliseconds = milliseconds }
        // A frame with an extra kind tells what that kind costs.
        for k in extras { cost[k] = milliseconds }
    }

    /// Whether `k` may run this frame under `budget`.
    mutating func affordable(_ k: Kind, budget: Double) -> Bool {
        guard cheapMilliseconds < budget else { return false }
        guard let c = cost[k], c >= budget else { return true }
        skipped[k, default: 0] += 1
        guard skipped[k]! >= Self.retryEvery else { return false }
        skipped[k] = 0
        return true
    }

    private var turn = 0

    /// Frames from one expensive pass to the next: 1 while they find codes the cheap passes miss, doubled
    /// after each round of every kind that found nothing, up to `maxGap`. A scene without such codes (most
    /// of them, and a busy surface) then costs the cheap passes and an expensive one every `maxGap` frames;
    /// a find, or a new code-like patch (`wake`), starts the rounds again at once. (What was found is kept up
    /// by `TrackedCrops`.)
    private(set) var gap = 1
    static let maxGap = 8
    private var sinceLast = 0
    private var fruitlessTurns = 0

    /// Something new that may be a code came into view (a patch that looks like one): the expensive passes
    /// take their turns every frame again, so a code only one of them reads is found within a round. But a scene
    /// whose new patches keep waking them and never give a find is a surface, not codes being shown (a cluttered
    /// counter panned past, shelf edges, print): each woken round that found nothing doubles the frames before
    /// the next wake is heeded, up to `maxWakeRest`, and after it the gap is what it was before; a find heeds the
    /// next wake at once. So the expensive passes cost a bounded share of the frames whatever the scene shows (a
    /// round every `maxWakeRest` frames and one kind every `maxGap`: about one frame in five), and a code only
    /// they read, shown on such a surface, is still found within a rest and a round.
    mutating func wake() {
        // A wake during a woken round is that round's.
        guard !woken, sinceWake >= wakeRest else { return }
        sinceWake = 0
        gapBeforeWake = gap
        woken = true
        gap = 1
        fruitlessTurns = 0
    }

    /// Frames since the last heeded wake, and how many must pass before the next is heeded.
    private var sinceWake = Int.max / 2
    private(set) var wakeRest = 0
    /// The round since the last heeded wake is its own: it has found nothing yet. After it, the gap is what it
    /// was before (a woken round that found nothing says nothing new about the scene).
    private var woken = false
    private var gapBeforeWake = 1
    static let maxWakeRest = 64

    /// After a frame with `kinds`: whether they found a code the cheap passes did not.
    mutating func outcome(of kinds: Set<Kind>, foundNew: Bool) {
        guard !kinds.isEmpty else { return }
        if foundNew {
            gap = 1
            fruitlessTurns = 0
            (wakeRest, woken) = (0, false)
            return
        }
        fruitlessTurns += kinds.count
        if fruitlessTurns >= max(1, roundLength) {
            gap = min(Self.maxGap, max(gap * 2, woken ? gapBeforeWake : 1))
            fruitlessTurns = 0
            if woken { (wakeRest, woken) = (min(Self.maxWakeRest, max(Self.maxGap, wakeRest * 2)), false) }
        }
    }

    /// Kinds run since the scene last moved (see `next`'s `still`).
    private(set) var triedWhileStill: Set<Kind> = []
    /// Whether the last frame had code-like patches (the upright kinds apply only then).
    private var hadCandidates = false
    /// Kinds that apply to a moving scene as the last frame was: one round of them that found nothing doubles `gap`.
    private var roundLength = Kind.allCases.count

    /// Whether every kind that applies to a still scene has run since it last moved: a still scene whose
    /// decodes found nothing may then rest.
    func triedEveryKind(formats: BarcodeFormats) -> Bool {
        Kind.allCases.allSatisfy { triedWhileStill.contains($0) || !applies($0, formats, candidates: hadCandidates, still: true) }
    }

    /// The extra passes for this frame, and their kinds. `still`: the scene is the one the last decoded frame
    /// showed. A still scene gets, frame after frame and whatever the budget, each kind it has not had since it
    /// last moved (a code held still that only one of them reads is found before the scene rests); a moving
    /// one gets one kind in turn every `gap` frames, within the budget.
    /// `hasCandidates`: whether the frame has code-like patches not read elsewhere, which `candidates` finds
    /// (called only for a kind that needs them).
    mutating func next(
        region: PixelRect, formats: BarcodeFormats, hasCandidates: Bool = false, candidates: () -> [CodeCandidates.Candidate] = { [] },
        budget: Double, still: Bool = false
    ) -> (passes: [Extra], kinds: Set<Kind>) {
        hadCandidates = hasCandidates
        sinceWake += 1
        roundLength = Kind.allCases.filter { applies($0, formats, candidates: hasCandidates, still: false) }.count
        if !still { triedWhileStill = [] }
        var kinds: Set<Kind> = []
        if still,
            let k = Kind.allCases.first(where: { !triedWhileStill.contains($0) && applies($0, formats, candidates: hadCandidates, still: true) })
        {
            kinds.insert(k)
            sinceLast = 0
        } else {
            sinceLast += 1
            guard sinceLast >= gap else { return ([], []) }
            sinceLast = 0
            for _ in Kind.allCases {
                let k = Kind.allCases[turn % Kind.allCases.count]
                turn += 1
                if applies(k, formats, candidates: hadCandidates, still: false), affordable(k, budget: budget) {
                    kinds.insert(k)
                    break
                }
            }
        }
        if still { triedWhileStill.formUnion(kinds) }
        let found = kinds.contains(.uprightLinear) || kinds.contains(.enlargedLinear) ? candidates() : []
        return (kinds.sorted { $0.rawValue < $1.rawValue }.flatMap { passes($0, region: region, formats: formats, candidates: found) }, kinds)
    }

    private func applies(_ k: Kind, _ formats: BarcodeFormats, candidates: Bool, still: Bool) -> Bool {
        let linear = !formats.intersection(.linear).isEmpty
        return switch k {
        case .inverted: true
        case .rotated: linear
        case .downscaled: !formats.intersection(.matrix).isEmpty
        case .uprightLinear, .enlargedLinear: linear && candidates
        case .harderLinear: linear && still
        }
    }

    private mutating func passes(_ k: Kind, region: PixelRect, formats: BarcodeFormats, candidates: [CodeCandidates.Candidate]) -> [Extra] {
        /// One pass over the region for `only` of the formats, with zxing's harder search and rotation as given.
        func whole(_ label: String, _ only: BarcodeFormats, harder: Bool, rotate: Bool, downscale: Bool = false) -> [Extra] {
            var p = DecodePass(.extra(k), label: "live extra " + label, crop: region, formats: formats.intersection(only))
            p.tryHarder = harder
            p.tryRotate = rotate
            p.tryDownscale = downscale
            return [Extra(kind: k, pass: p)]
        }
        switch k {
        case .inverted:
            // The shim's inversion: zxing's own leaves out linear codes and PDF417.
            return FrameDecoder.passes(region: region, formats: formats).map { p in
                var q = p
                q.role = .extra(k)
                q.label = "live extra inverted " + p.label
                q.invert = true
                return Extra(kind: k, pass: q)
            }
        case .rotated: return whole("rotated linear", .linear, harder: false, rotate: true)
        case .downscaled: return whole("downscaled matrix", .matrix, harder: false, rotate: false, downscale: true)
        case .uprightLinear, .enlargedLinear:
            let enlarged = k == .enlargedLinear
            return CodeCandidates.linearPasses(
                for: candidates, region: region, formats: formats, upscale: enlarged ? 2 : 1, role: .extra(k),
                label: enlarged ? "live extra enlarged linear" : "live extra upright linear"
            ).map { Extra(kind: k, pass: $0) }
        case .harderLinear: return whole("harder linear", .linear, harder: true, rotate: true)
        }
    }
}
