import ScandBarPattern
import ScandCore

/// Decodes camera frames: the rect of interest of the frame as the camera delivers it after the configured
/// rotation and mirror. Corners come back in that oriented frame's pixels. Blocking: run it on a thread of
/// its own.
///
/// Find, then read (docs/architecture.md, "Live decoding"): every frame gets bands along the linear codes
/// `LinearLocator` finds and upright crops around patches that look like matrix codes (`CodeCandidates`); the
/// cheap whole-frame passes are the fallback (`wholeFrameEvery`); one expensive pass a frame comes round in
/// turn within the budget, and a code only such a pass read is re-read every frame from a small crop (`TrackedCrops`).
public struct FrameDecoder: Sendable {
    public var formats: BarcodeFormats
    public var regionOfInterest: NormalizedRect
    public var transform: FrameTransform
    public var decoder: ZXingDecoder
    /// The decoder's pass deadline, following the machine's speed (nil: the decoder has none).
    public private(set) var passDeadline: PassDeadline?
    public var merger = DetectionMerger()
    /// ITF payload lengths to report; empty: any (see `ScandConfig.itfLengths`).
    public var itfLengths: Set<Int> = []
    /// Add an expensive pass only while a frame with one decodes in less than this (a 30 fps camera gives 33 ms).
    public var extraPassBudgetMilliseconds = 25.0
    private var schedule = ExtraPassSchedule()
    private(set) var tracked = TrackedCrops()
    /// What the last frame ran, for tests.
    private(set) var lastPasses: [DecodePass] = []
    /// The kinds of expensive pass the last frame ran, for tests.
    private(set) var lastExtras: Set<ExtraPassSchedule.Kind> = []
    /// Codes the located bands and tracked crops read in the last frame: patches around them need no upright
    /// crop (those passes run again on the next frame). Not an expensive pass's reads: it does not.
    private var readElsewhere: [Detection] = []
    /// Codes the tracked crops read in the last frame: their located bands would only read them again.
    private var readEveryFrame: [Detection] = []
    /// The whole-frame passes (`passes(region:formats:)`) are the fallback: they run on one frame in this many
    /// (the first included), and on every frame while they read a code that no located band, upright crop or
    /// tracked crop reads. A code the localizers find is read from its band or crop alone; one they miss is read
    /// within this many frames, and then every frame while in view. 1: every frame.
    public var wholeFrameEvery = 4
    /// The last whole-frame passes read a code nothing else read: the next frame runs them too.
    private var wholeFrameNeeded = false
    /// EAN/UPC reads whose bars agreed lately (`BarPatternCheck`), with the frame: the same number read again on
    /// the same bars needs no second check (one costs about a millisecond, and a code held up is read every
    /// frame). A number its bars never agreed with is checked in every frame.
    private var agreedBars: [(read: Detection, frame: Int)] = []
    static let agreedBarsKept = 30
    /// Every code-like patch the last frame held, read, resting or not.
    private var lastPatches: [PixelRect] = []
    /// Candidate patches whose crops read nothing, and the frame until which they rest.
    private var fruitless: [(bounds: PixelRect, until: Int)] = []
    private var frameCount = 0
    /// Finds linear codes for the bands every frame reads (`LinearLocator`).
    public var locator = LinearLocator()
    /// Bands around located linear codes that read nothing, and the frame they did not.
    private var fruitlessBands: [(crop: PixelRect, frame: Int)] = []
    /// A located patch whose band read nothing this many frames in a row (a texture, not a code) is left out…
    static let fruitlessBandsBeforeRest = 3
    /// …until this many frames have passed since the first: a code being shown is read within a few frames of
    /// its first, and a stripy surface costs a band every few frames.
    static let bandRest = 8
    /// Bands whose own read found nothing last frame (whether a deblurred read did or not), and faint bands: a
    /// swiped or defocused code's band there this frame is read deblurred too (`LinearLocator.deblurred`).
    private var blurredBands: [PixelRect] = []
    /// At most this many bands a frame are read deblurred: each costs three reads, nine while the scene moves.
    static let deblurredBandsPerFrame = 2
    /// Set by the caller before each frame: whether the scene is the one the last decoded frame showed
    /// (`SceneSignature.isStatic`). A still scene gets each expensive pass it has not had since it last moved,
    /// one a frame and whatever the budget, so that a code held still is read as `scand scan` reads it.
    public var sceneIsStill = false
    /// Set by the caller before each frame: the scene is still and new (`DecodeLoop.unreadPatience`). Code-like
    /// patches and located bands that read nothing are cropped again on every such frame instead of resting: a
    /// defocused or glared code held still is readable in one frame in ten or twenty, as the sensor's noise
    /// differs, and a rest of 8 or 15 frames missed those. A surface's patches rest again once the scene is old.
    public var retriesUnreadPatches = false
    /// The last frame held a code-like patch or located linear code that nothing read (resting or not): a still
    /// scene showing it is worth decoding while `retriesUnreadPatches`.
    public private(set) var hadUnreadPatches = false
    /// Whether every expensive pass that applies has run since the scene last moved: a still scene whose
    /// decodes found nothing may rest from then on.
    public var hasTriedEveryPass: Bool { schedule.triedEveryKind(formats: formats) }
    /// Frames a fruitless patch rests: a textured surface is not cropped on every turn.
    static let fruitlessRest = 15
    private var candidateFinder: CodeCandidates = {
        var c = CodeCandidates()
        c.limit = 4  // a frame's worth: each costs a few small passes
        return c
    }()

    public init(
        formats: BarcodeFormats = .all, regionOfInterest: NormalizedRect = .full, transform: FrameTransform = .identity,
        itfLengths: Set<Int> = [], decoder: ZXingDecoder = ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker())
    ) {
        self.formats = formats
        self.itfLengths = itfLengths
        self.regionOfInterest = regionOfInterest
        self.transform = transform
        self.decoder = decoder
        passDeadline = decoder.passTimeoutMilliseconds > 0 ? PassDeadline(floorMilliseconds: decoder.passTimeoutMilliseconds) : nil
    }

    /// A frame took `seconds` to decode, and a pass overran the deadline or not: the next frames' passes get
    /// the deadline that follows (`PassDeadline`).
    public mutating func decoded(seconds: Double, overran: Bool) {
        guard var deadline = passDeadline else { return }
        deadline.decoded(seconds: seconds, overran: overran)
        passDeadline = deadline
        decoder.passTimeoutMilliseconds = deadline.milliseconds
    }

    /// Memory to capture frames into so that the decoder processes read them with no copy (see `DecoderWorker`).
    public var frameMemory: FrameMemoryAllocator? {
        guard let worker = decoder.worker else { return nil }
        return { @Sendable count in worker.frameMemory(count: count) }
    }

    public struct Result: Sendable {
        public var detections: [Detection]
        public var failures: [PassFailure]
        /// Size of the oriented frame the corners refer to.
        public var width: Int
        public var height: Int
    }

    /// Bands along the linear codes the localizer finds (`LinearLocator`), but for those a pass read last frame
    /// (`known`: the whole-frame passes read them again) and patches whose bands keep reading nothing (unless
    /// `retriesUnreadPatches`), with how many of those rest; and the bands read deblurred: those near a band
    /// that read nothing last frame, then, while the scene moves, faint ones (`LinearLocator.Candidate.isFaint`),
    /// which are read deblurred only.
    private mutating func locatedLinearPasses(_ luma: LumaView, region: PixelRect, known: [Detection], now: Int) -> LocatedBands {
        guard !formats.intersection(.linear).isEmpty else { return LocatedBands(passes: [], deblurSources: [], deblurred: [], resting: 0) }
        fruitlessBands.removeAll { $0.frame <= now - Self.bandRest }
        let misses = retriesUnreadPatches ? [] : fruitlessBands
        let found = locator.find(in: luma, region: region, includingFaint: !sceneIsStill).filter { c in
            !known.contains { c.bounds.contains($0.corners.center) }
        }
        let located = found.filter { c in misses.count { $0.crop.contains(Point(c.centerX, c.centerY)) } < Self.fruitlessBandsBeforeRest }
        let passes = LinearLocator.passes(
            for: located.filter { !$0.isFaint }, region: region, formats: formats, role: .locatedLinear, label: "live located linear")
        // A faint component inside a found code's band is part of that code (its add-on, a glared half).
        let faint = LinearLocator.passes(
            for: located.filter { c in c.isFaint && !passes.contains { $0.crop.contains(Point(c.centerX, c.centerY)) } }, region: region,
            formats: formats, role: .locatedLinear, label: "live faint linear")
        let blurred = blurredBands
        let sources = Array((passes.filter { p in blurred.contains { Self.near(p.crop, $0) } } + faint).prefix(Self.deblurredBandsPerFrame))
        let deblurred = sources.flatMap { LinearLocator.deblurred($0, moving: !sceneIsStill) }
        return LocatedBands(
            passes: passes, deblurSources: sources, deblurred: deblurred, resting: found.count { !$0.isFaint } - located.count { !$0.isFaint })
    }

    /// A frame's bands along located linear codes (`locatedLinearPasses`): those read as they are, those also
    /// read deblurred and their deblurred passes, and how many located codes rest.
    private struct LocatedBands {
        var passes: [DecodePass]
        var deblurSources: [DecodePass]
        var deblurred: [DecodePass]
        var resting: Int
    }

    /// A frame's code-like patches (`CodeCandidates`): every one it holds, those cropped this frame, and how many
    /// no band or tracked crop read last frame (resting ones included).
    private struct Patches {
        var all: [PixelRect]
        var cropped: [CodeCandidates.Candidate]
        var unread: Int
    }

    /// `found` with its deblurred reads weighed. A wrong guess at a defocus can restore bars that are not there:
    /// on a code wrapped round a can, single guesses read EAN-8s that pass the check digit, each guess another.
    /// Where the bars are truly restored, neighbouring guesses read the same, so a read with a defocus undone
    /// stands only where another guess of the same band (an overlapping outline) reads the same main number. A
    /// smear's guesses read alone: a swipe's smear is near one length, and its reads (none wrong in the till
    /// session) come from one guess in two frames. A band's rows and its guesses share one image, though: what
    /// stands counts as one scan line, and a code another pass read in this frame needed no deblurring (its
    /// read would count as a second opinion).
    static func deblurredReadsWeighed(_ found: [DecodeReport.Found], passes: [DecodePass]) -> [DecodeReport.Found] {
        let plain = found.filter { $0.role != .deblurredLinear }.map(\.detection)
        let deblurred = found.indices.filter { found[$0].role == .deblurredLinear }
        func agree(_ a: Detection, _ b: Detection) -> Bool {
            // With an add-on or without: one guess may read the add-on, a neighbouring one not.
            a.format == b.format && (a.text.hasPrefix(b.text) || b.text.hasPrefix(a.text)) && a.corners.overlaps(b.corners)
        }
        return found.indices.compactMap { i in
            let f = found[i]
            guard f.role == .deblurredLinear else { return f }
            if plain.contains(where: { $0.format == f.detection.format && $0.corners.overlaps(f.detection.corners) }) { return nil }
            let defocused = f.pass.map { passes.indices.contains($0) && passes[$0].defocus > 0 } ?? true
            if defocused && !deblurred.contains(where: { found[$0].pass != f.pass && agree(found[$0].detection, f.detection) }) { return nil }
            var one = f
            one.detection.lineCount = min(one.detection.lineCount, 1)
            return one
        }
    }

    /// `found` with each read made from invented pixels marked (`Detection.reconstructed`): a deblurring guess, or
    /// a crop enlarged by interpolation. The tracker counts such a read as half a look. A read of a band with a
    /// smear undone carries the smear in the image's pixels (`Detection.smear`) for the check of its bars.
    static func markedReconstructed(_ found: [DecodeReport.Found], passes: [DecodePass]) -> [DecodeReport.Found] {
        found.map { f in
            var f = f
            let pass = f.pass.flatMap { passes.indices.contains($0) ? passes[$0] : nil }
            if f.role == .deblurredLinear || (pass?.upscale ?? 1) > 1 { f.detection.reconstructed = true }
            if f.role == .deblurredLinear, let pass, pass.unsmear > 0 {
                f.detection.smear = Double(pass.unsmear) / Double(max(1, pass.upscale))
            }
            return f
        }
    }

    /// Whether two bands' centres lie within the longer one's length: a code swiped 100 px a frame is still near
    /// where its band was.
    static func near(_ a: PixelRect, _ b: PixelRect) -> Bool {
        let reach = max(a.width, b.width)
        return abs(a.center.x - b.center.x) <= Double(reach) && abs(a.center.y - b.center.y) <= Double(reach)
    }

    /// The cheap whole-frame passes of live frames (the fallback, see `wholeFrameEvery`), at full resolution, with neither zxing's rotation, pyramid,
    /// inversion nor harder search (which costs several times as much on a busy surface, measured): one for the
    /// matrix formats but PDF417, and the linear ones in overlapping horizontal bands, since zxing's fast linear scan reads
    /// rows near the middle of what it is given only (a band a quarter of the region high, one every eighth:
    /// a linear code anywhere in view, a sixteenth of the region high or more, is read in the first frame).
    public static func passes(region: PixelRect, formats: BarcodeFormats) -> [DecodePass] {
        func cheap(_ role: DecodePass.Role, _ label: String, _ crop: PixelRect, _ formats: BarcodeFormats) -> DecodePass {
            var p = DecodePass(role, label: label, crop: crop, formats: formats)
            p.tryHarder = false
            p.tryRotate = false
            return p
        }
        // PDF417 is left to the upright crops (and the downscaled pass): its detector costs as much as all the
        // other matrix formats together on a busy surface, and reads few tilted codes over the whole frame.
        let matrix = formats.intersection(.matrix).subtracting(BarcodeFormats(.pdf417)), linear = formats.intersection(.linear)
        let bands = linear.isEmpty ? [] : linearBands(of: region).map { cheap(.linearBand, "live linear", $0, linear) }
        return (matrix.isEmpty ? [] : [cheap(.cheapMatrix, "live matrix", region, matrix)]) + bands
    }

    /// Horizontal bands a quarter of the region high, an eighth apart (the whole region when it is low).
    static func linearBands(of region: PixelRect) -> [PixelRect] {
        let height = region.height / 4, step = max(1, region.height / 8)
        guard height >= 48 else { return [region] }
        return stride(from: region.y, through: region.maxY - height, by: step).map {
            PixelRect(x: region.x, y: $0, width: region.width, height: height)
        }
    }

    public mutating func decode(_ frame: Frame) throws(ImageGeometryError) -> Result {
        let f = frame.format
        let incomplete = ImageGeometryError(description: "frame of \(frame.byteCount) bytes does not hold \(f)")
        guard f.lumaLayout != nil, f.isComplete(frame.byteCount) else { throw incomplete }
        let started = ContinuousClock.now
        let result: Result
        if transform == .identity {
            // The common case reads the luma in place: no copy of the frame.
            guard let inPlace = frame.withLumaView({ luma in Swift.Result { () throws(ImageGeometryError) in try decode(luma) } }) else {
                throw incomplete
            }
            result = try inPlace.get()
        } else {
            guard let luma = frame.luma() else { throw ImageGeometryError(description: "no luma in \(f)") }
            result = try luma.oriented(by: transform).withView { luma in Swift.Result { () throws(ImageGeometryError) in try decode(luma) } }.get()
        }
        let spent = (ContinuousClock.now - started).components
        schedule.record(milliseconds: Double(spent.seconds) * 1000 + Double(spent.attoseconds) / 1e15, extras: lastExtras)
        return result
    }

    /// One frame: where codes are, this frame's passes over them, what they read remembered for the next frames'
    /// passes, and the reads that are the frame's own codes, held against their bars.
    private mutating func decode(_ luma: LumaView) throws(ImageGeometryError) -> Result {
        let region = regionOfInterest.pixelRect(width: luma.width, height: luma.height)
        frameCount += 1
        let now = frameCount
        let wholeFrame = wholeFrameNeeded || (now - 1) % max(1, wholeFrameEvery) == 0
        let patches = codeLikePatches(in: luma, region: region, now: now)
        let candidatePasses = CodeCandidates.passes(for: patches.cropped, region: region, formats: formats, label: "live upright crop")
        let located = locatedLinearPasses(luma, region: region, known: readEveryFrame, now: now)
        wakeExpensivePasses(for: patches)
        // The upright linear kinds read every unread patch, resting or not (a patch rests from the matrix crops).
        let known = readElsewhere, finder = candidateFinder
        let (extras, kinds) = schedule.next(
            region: region, formats: formats, hasCandidates: patches.unread > 0,
            candidates: {
                finder.find(in: luma, region: region, excluding: { bounds in known.contains { bounds.contains($0.corners.center) } })
            }, budget: extraPassBudgetMilliseconds, still: sceneIsStill)
        lastExtras = kinds
        let passes =
            (wholeFrame ? Self.passes(region: region, formats: formats) : []) + located.passes + located.deblurred + candidatePasses
            + tracked.passes(region: region)
            + extras.map(\.pass)
        lastPasses = passes
        var report = try decoder.decode(luma, passes: passes)
        report.found = Self.markedReconstructed(Self.deblurredReadsWeighed(report.found, passes: passes), passes: passes)
        restUnread(patches, located, report: report, now: now)
        remember(report, wholeFrame: wholeFrame, extras: extras.map(\.pass), kinds: kinds)
        let checked = heldAgainstTheirBars(ownCodes(report, in: luma), in: luma, now: now)
        return Result(detections: checked, failures: report.failures, width: luma.width, height: luma.height)
    }

    /// The frame's code-like patches; those a band or tracked crop read last frame, and (unless
    /// `retriesUnreadPatches`) those resting, are not cropped.
    private mutating func codeLikePatches(in luma: LumaView, region: PixelRect, now: Int) -> Patches {
        fruitless.removeAll { $0.until <= now }
        let known = readElsewhere, resting = retriesUnreadPatches ? [] : fruitless.map(\.bounds), finder = candidateFinder
        var patches: [PixelRect] = []
        var unread = 0
        let candidates =
            formats.intersection(CodeCandidates.formats.union(.linear)).isEmpty
            ? []
            : finder.find(
                in: luma, region: region,
                excluding: { bounds in
                    patches.append(bounds)
                    if known.contains(where: { bounds.contains($0.corners.center) }) { return true }
                    unread += 1
                    return resting.contains { $0.contains(bounds.center) }
                })
        return Patches(all: patches, cropped: candidates, unread: unread)
    }

    /// A code-like patch that was not in view last frame (a code being shown) may be one only an expensive pass
    /// reads; a surface's own patches, which stay, do not keep the passes awake.
    private mutating func wakeExpensivePasses(for patches: Patches) {
        let before = lastPatches
        if patches.cropped.contains(where: { c in !before.contains { $0.contains(c.bounds.center) } }) { schedule.wake() }
        lastPatches = patches.all
    }

    /// Patches and bands whose passes read nothing rest (`fruitlessRest`, `bandRest`), and bands that read
    /// nothing of their own are read deblurred next frame; whether a code-like patch or located code went unread.
    private mutating func restUnread(_ patches: Patches, _ located: LocatedBands, report: DecodeReport, now: Int) {
        // Patches not cropped (resting, or past the limit) are unread as well as those whose crops read nothing.
        hadUnreadPatches = located.resting > 0 || patches.unread > patches.cropped.count
        for c in patches.cropped where !report.detections.contains(where: { c.bounds.contains($0.corners.center) }) {
            fruitless.append((c.bounds, now + Self.fruitlessRest))
            hadUnreadPatches = true
        }
        let readOwn = { (p: DecodePass, roles: Set<DecodePass.Role>) in
            report.found.contains { roles.contains($0.role) && p.crop.contains($0.detection.corners.center) }
        }
        let faintSources = located.deblurSources.filter { s in !located.passes.contains { $0.crop == s.crop } }
        blurredBands = (located.passes + faintSources).filter { !readOwn($0, [.locatedLinear]) }.map(\.crop)
        for p in located.passes where !readOwn(p, [.locatedLinear, .deblurredLinear]) {
            fruitlessBands.append((p.crop, now))
            hadUnreadPatches = true
        }
        // A faint band tried in vain rests as a located one does (a stripy surface in a moving scene), but does not
        // keep a still scene awake: it is found only while the scene moves.
        for p in faintSources where !readOwn(p, [.deblurredLinear]) { fruitlessBands.append((p.crop, now)) }
    }

    /// What this frame's passes read, for the next frame's: the codes bands and tracked crops read (their patches
    /// need no crop), whether the whole-frame passes run again, the codes only an expensive pass read (tracked),
    /// and whether the expensive passes `kinds` found a code new.
    private mutating func remember(_ report: DecodeReport, wholeFrame: Bool, extras: [DecodePass], kinds: Set<ExtraPassSchedule.Kind>) {
        let wholeFrameRoles: Set<DecodePass.Role> = [.cheapMatrix, .linearBand]
        readElsewhere = report.found.filter { $0.role == .locatedLinear || $0.role == .deblurredLinear || $0.role.isTrackedCrop }.map(\.detection)
        readEveryFrame = report.found.filter(\.role.isTrackedCrop).map(\.detection)
        if wholeFrame {
            // What the passes of every frame read (bands, crops, tracked crops; not an expensive pass's turn).
            let covered = report.found.filter { !wholeFrameRoles.contains($0.role) && !$0.role.isExtra }.map(\.detection)
            wholeFrameNeeded = report.found.contains { f in
                wholeFrameRoles.contains(f.role) && !covered.contains { $0.isSameSymbol(as: f.detection) }
            }
        }
        // Codes only an expensive pass read are re-read next frame from a crop around them.
        let regular = report.found.filter(\.role.isRegular).map(\.detection)
        tracked.update(found: report.found, regular: regular, extras: extras)
        let foundNew = report.found.contains { f in f.role.isExtra && !regular.contains { $0.isSameSymbol(as: f.detection) } }
        schedule.outcome(of: kinds, foundNew: foundNew)
    }

    /// The frame's reads merged into its codes, with the configured ITF lengths only; of two numbers read on the
    /// same bars the one with clearly more scan lines, else neither; no UPC-E inside an EAN-13's bars (its left
    /// half); add-on bars beside a read without one marked (the tracker waits for them).
    private func ownCodes(_ report: DecodeReport, in luma: LumaView) -> [Detection] {
        let read = merger.merge(report.detections).filter { d in
            d.format != .itf || itfLengths.isEmpty || itfLengths.contains(d.text.count)
        }
        let merged = StillDisagreement.settled(read, raw: report.found) { LumaImage(luma) }
        let own = QuietZone.keep(merged, in: luma)
        return AddOnBars.mark(own, raw: report.detections, in: luma)
    }

    /// Each EAN/UPC read held against its own bars in the frame's pixels (`BarPatternCheck`), but for a number
    /// whose bars agreed lately (`agreedBars`).
    private mutating func heldAgainstTheirBars(_ reads: [Detection], in luma: LumaView, now: Int) -> [Detection] {
        agreedBars.removeAll { $0.frame <= now - Self.agreedBarsKept }
        return reads.map { d in
            var d = d
            guard ScanLineEvidence.patternChecked.contains(d.format) else { return d }
            let bars = BarsSpan(d.corners)
            // (An agreed read with another add-on, or none, is checked again: its add-on is new.)
            if let i = agreedBars.firstIndex(where: { a in
                a.read.format == d.format && a.read.bytes == d.bytes && BarsSpan(a.read.corners, axisOf: d.corners).sameBars(as: bars)
            }) {
                (d.barsAgree, d.addOnBarsAgree) = (true, agreedBars[i].read.addOnBarsAgree)
                agreedBars[i] = (d, now)
                return d
            }
            let verdict = BarPatternCheck.verdict(d, in: luma)
            (d.barsAgree, d.addOnBarsAgree) = (verdict.main.map { !$0 }, verdict.addOn.map { !$0 })
            if d.barsAgree == true { agreedBars.append((d, now)) }
            return d
        }
    }
}
