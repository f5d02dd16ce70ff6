import Foundation
import ScandCapture
import ScandCore
import ScandDecoding
import ScandProtocol
import ScandRuntime
import ScandTracking

/// Takes the newest frame from the hand-off, decodes it, runs the codes through the tracker and writes
/// its events (SCAN once per code shown, UPDATE, LOST). An actor on a thread of its own: a decode blocks
/// on the decoder processes' answers, which must never hold a thread of Swift's cooperative pool.
actor DecodeLoop {
    /// Its event loop, of its own: a decode blocks it.
    nonisolated let executor = OwnEventLoop(name: "scand-decode")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }

    private var decoder: FrameDecoder  // it keeps a schedule of expensive passes from frame to frame
    private var tracker: CodeTracker
    private let device: String
    private let output: OutputSink
    private var metrics: DecodeMetrics
    private var snapshots: SnapshotRequests
    private let daemonMetrics: DaemonMetrics?
    private let clock: PipelineClock
    /// Skip frames of a static scene whose last decode found nothing, once the decoder has tried every pass on
    /// it (an idle kiosk costs next to no CPU).
    private let skipStaticScenes: Bool
    /// The last decoded frame's scene, and whether that decode found anything.
    private var lastScene: SceneSignature?
    /// `lastScene` is of an MJPEG frame at an eighth of its size, decoded so or as its whole picture's 8×8 block
    /// means (`SceneSignature(eighthOf:)`): comparable only with such.
    private var lastSceneOfEighth = false
    /// MJPEG frames are decoded here, made with the first: a still scene's frame is judged from its eighth-size
    /// picture and not decoded whole.
    private var jpeg: MJPEGDecoder?
    private var lastFound = false
    /// The last MJPEG frame was decoded whole: the next is decoded whole before its scene is judged.
    private var lastDecodedWhole = false
    /// Frames of a still scene with codes held since its last decode (`restingRecheck`).
    private var heldFrames = 0
    /// A still scene whose codes are all scanned is decoded again this often (frames: 2 s at 30 fps), in case it
    /// changed in a way its signature does not show: a ticket left on the reader costs about what an idle one
    /// does (docs/performance.md; a recheck every second cost about 1.5 times the empty scene's).
    static let restingRecheck = 60
    /// Frames a still scene holding codes read but not scanned rests between its decodes once it is
    /// `unreadPatience` old: doubled at each of them, up to `restingRecheck`.
    private var unscannedGap = 1
    /// Frames judged still in a row, resting ones included (0: the scene changed with this frame).
    private var stillFrames = 0
    /// A still scene where nothing is read but a code-like patch or located linear code shows is decoded every
    /// frame, its patches cropped every frame (`FrameDecoder.retriesUnreadPatches`), for this many frames (3 s at
    /// 30 fps: as long as a customer holds an item up) before it rests: a defocused code, or one under glare, is
    /// readable in one frame in ten or twenty as the sensor's noise changes. A surface that only looks like a code
    /// costs that much after each change of the scene, then rests.
    static let unreadPatience = 90
    /// …or for this long by the frames' own stamps, whichever ends first: frames dropped while the decoder is busy
    /// (a slow machine, a busy one) are not judged, and must not stretch the search and keep it from ever ending.
    static let unreadPatienceMicroseconds: UInt64 = 3_000_000
    /// The stamp of the frame the scene last changed with, and whether its search has ended.
    private var stillSince: UInt64 = 0
    private var searchEnded = false
    /// Scenes whose search ended with nothing read: they rest when they come back still as they were.
    private var fruitlessScenes = FruitlessScenes()
    private var processes = DecoderProcessWatch()
    /// When the focus figure was last taken (frame time, µs): a few times a second is enough for a person.
    private var focusTakenAt: UInt64?
    /// The ids of the scanned codes read in the newest frame decoded, for snapshots: the setup page hides an
    /// outline as soon as its code is gone, not `lost_after` later at its LOST.
    private var readInLastFrame: [Int] = []
    /// When the last frame was done with: LOST events are due from the clock after `idleTick` without one.
    private var lastFrameDone = ContinuousClock.now
    static let idleTick = Duration.milliseconds(100)
    /// Without a clock, a stretch without frames shows only in the stamps.
    private var replayTicks = ReplayIdleTicks()

    init(
        decoder: FrameDecoder, tracker: TrackerSettings, device: String, output: OutputSink, metrics: DecodeMetrics,
        snapshots: SnapshotRequests = SnapshotRequests(), daemonMetrics: DaemonMetrics? = nil, skipStaticScenes: Bool = true,
        clock: PipelineClock
    ) {
        self.decoder = decoder
        self.tracker = CodeTracker(settings: tracker)
        self.device = device
        self.output = output
        self.metrics = metrics
        self.snapshots = snapshots
        self.daemonMetrics = daemonMetrics
        self.skipStaticScenes = skipStaticScenes
        self.clock = clock
    }

    /// Decodes frames until the hand-off is finished and drained, then ends the decoder processes.
    func run(from handOff: FrameHandOff) async {
        await withDiscardingTaskGroup { group in
            // The hand-off has no timeout: the clock's ticks find the idle stretches instead.
            group.addTask { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.idleTick)
                    await tickIfIdle()
                }
            }
            for await frame in handOff.framesAsTheyCame {
                // A stalled journal holds the decoding back (frames are dropped at the hand-off) instead of its
                // events piling up past the stage's room.
                await output.room()
                process(frame, from: handOff)
            }
            group.cancelAll()
        }
        // No frame can bring the add-on a code still waits for, nor the snapshot a client waits for.
        if let lastStamp = replayTicks.lastStamp { write(tracker.finish(at: .microseconds(lastStamp)), frame: nil) }
        ended = true
        snapshots.giveUp(reason: Self.endedReason)
        decoder.decoder.worker?.retire()
    }

    /// Decoding has ended: a snapshot asked now is refused at once.
    private var ended = false
    static let endedReason = "capture has stopped"

    /// Decodes and tracks with the formats, rect of interest, orientation, ITF lengths and tracker settings of
    /// `config` from the next frame on, through the same decoder processes; the codes being tracked and the
    /// counters go on, what the decoder learnt about earlier frames starts over.
    func reconfigure(_ config: ScandConfig) {
        let old = decoder
        decoder = FrameDecoder(
            formats: config.formats, regionOfInterest: config.regionOfInterest, transform: config.transform,
            itfLengths: config.itfLengths, decoder: old.decoder)
        decoder.extraPassBudgetMilliseconds = old.extraPassBudgetMilliseconds
        decoder.merger = old.merger
        tracker.settings = config[section: TrackerSettings.self]
        lastScene = nil  // the new settings may read what the old ones did not
    }

    /// A SNAPSHOT request: answered with the next frame taken (`SnapshotRequests`).
    func waitForSnapshot(isWanted: @escaping @Sendable () -> Bool, answer: @escaping @Sendable (String) -> Void) {
        guard !ended else { return answer(SnapshotRequests.refusal(Self.endedReason)) }
        snapshots.add(isWanted: isWanted, answer: answer)
    }

    private func tickIfIdle() {
        guard ContinuousClock.now - lastFrameDone >= Self.idleTick else { return }
        snapshots.expire(reason: "no frame arrived within \(SnapshotRequests.patience)")
        guard let now = clock.now() else { return }
        write(tracker.tick(at: now), frame: nil)
    }

    /// A frame's scene as it was judged: its signature, whether that is of an MJPEG frame's picture at an eighth
    /// of the size, and the whole picture when it was decoded to judge it.
    private struct SeenScene {
        var signature: SceneSignature
        var ofEighth: Bool
        var whole: Frame?
    }

    /// What a frame's scene calls for: whether it is still and searched for a code nothing reads, and whether
    /// it rests undecoded (`empty`: nothing to read; `settled`: its codes all scanned).
    private struct SceneJudgement {
        var still: Bool
        var searching: Bool
        var empty: Bool
        var settled: Bool
        /// Still for a search's length, its codes read but not all scanned (`unscannedGap`)…
        var unscanned = false
        /// …and this frame is within the gap: it rests, its codes held.
        var holdsUnscanned = false
        var rests: Bool { empty || settled || holdsUnscanned }
    }

    /// Judges the frame's scene; decodes the frame unless the scene rests, and writes the tracker's events.
    private func process(_ taken: Frame, from handOff: FrameHandOff) {
        defer { lastFrameDone = .now }
        let stamp = taken.timestampMicroseconds
        if let tick = replayTicks.take(stamp: stamp, idleTick: Self.idleTick), clock.now() == nil {
            write(tracker.tick(at: .microseconds(tick)), frame: nil)
        }
        guard let seen = scene(of: taken, from: handOff) else { return }
        let judged = judge(seen, at: stamp)
        guard let frame = picture(of: taken, seen: seen, judged: judged, from: handOff) else { return }
        if !frame.format.isCompressed {
            snapshots.offer(frame, transform: decoder.transform, inView: readInLastFrame)
            takeFocus(of: frame)
        }
        if rest(taken, judged, at: stamp) { return }
        decodeAndTrack(frame, seen: seen, judged: judged)
    }

    /// The frame's scene; nil when an MJPEG frame to be decoded whole does not decompress. An MJPEG frame's scene
    /// is judged from its picture at an eighth of the size, before it is decoded whole: a still scene's frames
    /// (most of an idle kiosk's) are never decoded whole. After a frame that was decoded whole (a moving scene, a
    /// code being read), the next most likely is too: it is decoded whole at once and judged from that picture's
    /// block means, so its Huffman data is decoded once, not twice.
    private func scene(of taken: Frame, from handOff: FrameHandOff) -> SeenScene? {
        var seen = SeenScene(signature: SceneSignature(frame: taken), ofEighth: false, whole: nil)
        guard taken.format.isCompressed else { return seen }
        let jpeg = self.jpeg ?? MJPEGDecoder()
        self.jpeg = jpeg
        let w = taken.format.width, h = taken.format.height
        if lastDecodedWhole {
            guard let grey = handOff.decompress(taken, with: jpeg) else { return nil }
            seen = SeenScene(signature: SceneSignature(eighthOf: grey), ofEighth: true, whole: grey)
        } else if let small = taken.withUnsafeBytes({ jpeg.eighth($0, width: w, height: h) }) {
            seen.signature = SceneSignature(grey: small.pixels, width: small.width, height: small.height)
            seen.ofEighth = true
        }
        return seen
    }

    /// Whether the scene is still, is searched for unread codes, or rests; it counts the still frames and
    /// remembers a scene whose search ended in vain.
    private func judge(_ seen: SeenScene, at stamp: UInt64) -> SceneJudgement {
        let scene = seen.signature, eighth = seen.ofEighth
        let still = lastScene.map { eighth == lastSceneOfEighth && scene.isStatic(comparedTo: $0) } ?? false
        stillFrames = still ? stillFrames &+ 1 : 0
        if !still { (stillSince, searchEnded) = (stamp, false) }
        let restedLong = stillFrames >= Self.unreadPatience || (stamp >= stillSince && stamp - stillSince >= Self.unreadPatienceMicroseconds)
        let unread = skipStaticScenes && still && !lastFound && tracker.visible.isEmpty
        // The frame that ends a search in vain: the scene is remembered, and rests when it comes back.
        if unread && restedLong && !searchEnded, let searched = lastScene {
            fruitlessScenes.searchedInVain(searched, eighth: lastSceneOfEighth, at: stamp)
            searchEnded = true
        }
        let searching = unread && !restedLong && !fruitlessScenes.rests(lastScene ?? scene, eighth: lastSceneOfEighth, at: stamp)
        // A static scene rests once every expensive pass has had its turn on it (a code held still that only one
        // of them reads, turned, tilted, small, …, is found first), and once it is old if it shows a code nothing
        // reads.
        let empty =
            skipStaticScenes && still && !lastFound && tracker.visible.isEmpty && decoder.hasTriedEveryPass
            && !(searching && decoder.hadUnreadPatches)
        // A still scene whose codes are all scanned rests too: its codes stay in view, unread, until it changes
        // (or the periodic recheck). A new code or a moved item changes the scene, and the next frame is decoded.
        let settled =
            !empty && skipStaticScenes && still && tracker.isSettled && decoder.hasTriedEveryPass && heldFrames < Self.restingRecheck
        // A still scene whose codes are read and not all scanned, once it is as old as a search: its frames are
        // the same pixels again, no new looks, and would be decoded for as long as it stays (a book whose add-on
        // never agrees left on the reader). It is decoded ever more rarely, the gap doubling: bounded work.
        let unscanned = skipStaticScenes && still && restedLong && tracker.holdsUnscannedCodes && decoder.hasTriedEveryPass
        if !unscanned { unscannedGap = 1 }
        var judged = SceneJudgement(still: still, searching: searching, empty: empty, settled: settled)
        (judged.unscanned, judged.holdsUnscanned) = (unscanned, unscanned && heldFrames < unscannedGap)
        return judged
    }

    /// The frame to decode and offer for snapshots: an MJPEG frame's whole picture, nil when it does not
    /// decompress. A resting MJPEG frame's whole picture is used only for a snapshot someone waits for (it is
    /// decoded whole only then, or when it followed a decoded frame and was judged from that picture).
    private func picture(of taken: Frame, seen: SeenScene, judged: SceneJudgement, from handOff: FrameHandOff) -> Frame? {
        lastDecodedWhole = taken.format.isCompressed && !judged.rests
        guard taken.format.isCompressed && (!judged.rests || snapshots.isWaiting) else { return taken }
        guard let jpeg, let grey = seen.whole ?? handOff.decompress(taken, with: jpeg) else { return nil }
        return grey
    }

    /// A resting scene's frame is not decoded: the tracker ticks on an empty one and holds a settled one's codes.
    /// Whether the frame rested.
    private func rest(_ taken: Frame, _ judged: SceneJudgement, at stamp: UInt64) -> Bool {
        let size = (taken, taken.format.width, taken.format.height)
        if judged.empty {
            readInLastFrame = []
            write(tracker.tick(at: .microseconds(stamp)), frame: size)
            metrics.skippedStaticScene()
            return true
        }
        if judged.settled || judged.holdsUnscanned {
            heldFrames += 1
            write(tracker.hold(at: .microseconds(stamp)), frame: size)
            metrics.skippedStaticScene()
            return true
        }
        return false
    }

    /// Decodes a frame whose scene does not rest, runs its codes through the tracker and writes their events.
    private func decodeAndTrack(_ frame: Frame, seen: SeenScene, judged: SceneJudgement) {
        heldFrames = 0
        if judged.unscanned { unscannedGap = min(unscannedGap * 2, Self.restingRecheck) }
        lastScene = seen.signature
        lastSceneOfEighth = seen.ofEighth
        decoder.sceneIsStill = skipStaticScenes && judged.still
        decoder.retriesUnreadPatches = judged.searching
        let started = Monotonic.microseconds()
        metrics.decodeStarted(at: started)
        defer { metrics.decodeEnded() }
        guard let decoded = decode(frame, startedAt: started) else { return }
        let (result, spent) = decoded
        lastFound = !result.detections.isEmpty
        let events = tracker.observe(result.detections, at: .microseconds(frame.timestampMicroseconds))
        readInLastFrame = Self.read(tracker.visible, in: result.detections)
        write(events, frame: (frame, result.width, result.height))
        let latency = Double(Monotonic.microseconds() &- frame.timestampMicroseconds) / 1000
        metrics.decoded(
            seconds: spent, codes: result.detections.count, scans: events.filter { if case .scan = $0 { true } else { false } }.count,
            failed: !result.failures.isEmpty, latency: latency)
    }

    /// The frame decoded, and the seconds it took; the decoder processes replaced and the pass failures are
    /// counted and logged. nil when the frame cannot be decoded (logged and counted).
    private func decode(_ frame: Frame, startedAt started: UInt64) -> (FrameDecoder.Result, Double)? {
        // A process that died since the last frame is replaced by this read, with no failed pass to show.
        let ended = decoder.decoder.worker.map { processes.ended(among: $0.processIDs) } ?? 0
        if ended > 0 { metrics.workersRestarted(ended) }
        let result: FrameDecoder.Result
        do { result = try decoder.decode(frame) } catch {
            output.logger("frame \(frame.sequence): \(error)", .warning)
            metrics.failedFrame()
            return nil
        }
        let spent = Double(Monotonic.microseconds() - started) / 1e6
        daemonMetrics?.recordDecode(seconds: spent)
        // A process that crashed or overran in a pass was killed and replaced too.
        let replaced = result.failures.filter { $0.kind == .crashed || $0.kind == .timeout }.count
        if replaced > 0 { metrics.workersRestarted(replaced) }
        adaptPassDeadline(to: result, spent: spent)
        for failure in result.failures { output.logger("frame \(frame.sequence): \(failure)", .warning) }
        return (result, spent)
    }

    /// The pass deadline follows the frame's decoding time; a deadline raised after an overrun is logged.
    private func adaptPassDeadline(to result: FrameDecoder.Result, spent: Double) {
        let deadline = decoder.passDeadline?.milliseconds
        decoder.decoded(seconds: spent, overran: result.failures.contains { $0.kind == .timeout })
        if let before = deadline, let after = decoder.passDeadline?.milliseconds, after > before {
            output.logger(
                "a decode pass overran \(before) ms: the decoders now have \(after) ms a pass (this machine decodes a frame in about \(Self.milliseconds(decoder.passDeadline?.typicalFrameSeconds ?? spent)))",
                .notice)
        }
    }

    /// A frame's decoding time as the overrun log says it: whole milliseconds, or tenths under 10 ms ("0.4 ms",
    /// not "0 ms": a pass that overruns on a fast machine hung, it did not take long).
    static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        return ms < 10 ? String(format: "%.1f ms", ms) : "\(Int(ms.rounded())) ms"
    }

    /// The visible codes one of `detections` reads: the same format, and the same text or one that begins
    /// the other (a read with or without an EAN add-on). By payload, not by the tracker's own matching,
    /// which keeps a read's place in its track.
    static func read(_ visible: [(id: Int, detection: Detection)], in detections: [Detection]) -> [Int] {
        visible.filter { v in
            detections.contains { d in d.format == v.detection.format && (d.text.hasPrefix(v.detection.text) || v.detection.text.hasPrefix(d.text)) }
        }.map(\.id)
    }

    /// The sharpness of the rect of interest, on the frame as it came (the rect mapped back through the
    /// orientation), at most 4 times a second.
    private func takeFocus(of frame: Frame) {
        let now = frame.timestampMicroseconds
        if let last = focusTakenAt, now >= last, now - last < 250_000 { return }
        focusTakenAt = now
        let w = frame.format.width, h = frame.format.height, t = decoder.transform
        let oriented = t.orientedSize(width: w, height: h)
        let r = decoder.regionOfInterest.pixelRect(width: oriented.width, height: oriented.height)
        let corners = [Point(Double(r.x), Double(r.y)), Point(Double(r.maxX), Double(r.maxY))].map {
            t.invert($0, width: Double(w), height: Double(h))
        }
        let x0 = Int(min(corners[0].x, corners[1].x)), y0 = Int(min(corners[0].y, corners[1].y))
        let x1 = Int(max(corners[0].x, corners[1].x)), y1 = Int(max(corners[0].y, corners[1].y))
        metrics.focus(FocusMeasure.sharpness(of: frame, in: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)), at: now)
    }

    private func write(_ events: [TrackEvent], frame: (Frame, Int, Int)?) {
        for e in events {
            var latency: Double?
            if case .scan = e, let f = frame?.0 {
                let ms = Double(Monotonic.microseconds() &- f.timestampMicroseconds) / 1000
                // Replays that keep the recorded stamps (lockstep, fast): no latency to speak of.
                if ms >= 0 && ms < 60_000 { latency = ms }
            }
            if case .scan(_, let d) = e { daemonMetrics?.recordScan(format: d.format, latencyMilliseconds: latency) }
            output.event(Event(e, device: device, time: Date(), frame: frame.map { ($0.0.sequence, $0.1, $0.2) }, latencyMilliseconds: latency))
        }
    }
}
