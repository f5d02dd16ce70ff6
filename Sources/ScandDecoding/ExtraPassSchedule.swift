import ScandCore

/// Which expensive pass a live frame gets on top of the cheap ones: one per frame, in turn, while the
/// decoder keeps within its budget. (What one found is kept up by `TrackedCrops`, not by running it again.)
struct ExtraPassSchedule: Sendable {
    enum Kind: Int, Sendable, CaseIterable {
        case inverted, mirrored, centredCrops, harderLinear
    }

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
    /// Which centred crop comes next (they are many; a few per frame).
    private var cropCursor = 0
    static let cropsPerFrame = 8

    /// The extra passes for this frame, and their kinds.
    mutating func next(region: PixelRect, formats: BarcodeFormats, budget: Double, skipping: Set<Kind> = []) -> (passes: [Extra], kinds: Set<Kind>) {
        var kinds: Set<Kind> = []
        for _ in Kind.allCases {
            let k = Kind.allCases[turn % Kind.allCases.count]
            turn += 1
            if !kinds.contains(k), !skipping.contains(k), applies(k, formats), affordable(k, budget: budget) {
                kinds.insert(k)
                break
            }
        }
        return (kinds.sorted { $0.rawValue < $1.rawValue }.flatMap { passes($0, region: region, formats: formats) }, kinds)
    }

    private func applies(_ k: Kind, _ formats: BarcodeFormats) -> Bool {
        switch k {
        case .inverted: true
        case .mirrored: !formats.intersection(StillImageStrategy.mirrorable).isEmpty
        case .centredCrops: !formats.intersection(StillImageStrategy.centreBound).isEmpty
        case .harderLinear: !formats.intersection(.linear).isEmpty
        }
    }

    private mutating func passes(_ k: Kind, region: PixelRect, formats: BarcodeFormats) -> [Extra] {
        switch k {
        case .inverted:
            // zxing never reads light-on-dark codes.
            return FrameDecoder.passes(region: region, formats: formats).map { p in
                var q = p
                q.label = "live extra inverted " + p.label
                q.invert = true
                q.fallbacks = q.fallbacks.map { var f = $0; f.invert = true; return f }
                return Extra(kind: k, pass: q)
            }
        case .mirrored:
            var p = DecodePass(label: "live extra mirrored", crop: region, formats: formats.intersection(StillImageStrategy.mirrorable))
            p.mirror = true
            p.tryHarder = false
            p.tryRotate = false
            p.tryDownscale = true
            return [Extra(kind: k, pass: p)]
        case .centredCrops:
            let crops = StillImageStrategy.centredCrops(of: region, side: min(region.width, region.height) / 2)
            guard !crops.isEmpty else { return [] }
            var out: [Extra] = []
            for i in 0..<min(Self.cropsPerFrame, crops.count) {
                var p = DecodePass(label: "live extra centred crop", crop: crops[(cropCursor + i) % crops.count],
                                   formats: formats.intersection(StillImageStrategy.centreBound))
                p.tryHarder = false
                p.tryRotate = false
                out.append(Extra(kind: k, pass: p))
            }
            cropCursor += Self.cropsPerFrame
            return out
        case .harderLinear:
            var p = DecodePass(label: "live extra linear harder", crop: region, formats: formats.intersection(.linear))
            p.maxSymbols = 1  // multi-symbol reads of linear codes can trip zxing 1.4's asserts
            return [Extra(kind: k, pass: p)]
        }
    }
}
