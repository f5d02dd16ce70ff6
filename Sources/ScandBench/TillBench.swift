import ArgumentParser
import Foundation
import ScandBenchScenes
import ScandCapture
import ScandCore
import ScandDecoding
import ScandProtocol
import ScandPipeline
import ScandTracking

/// `scand bench till`: a generated till session (`TillSession`: 100 items of the retail mix, held, shaken or
/// swiped, on cans, under glare, defocused, 720p30 MJPEG) through scand's live pipeline — twice in lockstep
/// and once at the recorded pace — and through libzbar and zxing-cpp's defaults on every frame, de-duplicated
/// as zbarcam does, all in one run: items exactly once, duplicates, misreads, missed, frames from the first
/// frame a single-frame read succeeds to the SCAN, and scand's CPU. At a till every item must be reported
/// exactly once, with its text.
struct TillBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "till",
        abstract: "A generated 100-item till session (720p30 MJPEG): scand live vs libzbar and zxing-cpp per frame."
    )

    @Option(name: .long, help: "Items in the session (1–1000).")
    var items: Int = 100

    @Option(name: .long, help: "Seed of the session: the same seed gives the same frames.")
    var seed: UInt64 = 30

    @OptionGroup var output: BenchOutput

    @Option(
        name: .long,
        help: "Many sessions, each replayed once in lockstep and scored together, with misreads per 1,000 items: a seed or a range (\"1-20\").")
    var seeds: String?

    @Option(name: .long, help: "The items' mix: retail, or hard (2 px EAN/UPC turned 15–40°, faint, shaken, on cans, under glare).")
    var mix: String = "retail"

    @Flag(name: .long, help: "Lay photos that look like codes (the shared test data's falsepositives-1) over the counter.")
    var clutter = false

    @Option(name: .long, help: "With --seeds: the tracker's redundancy (1–5; scand's default 2), to measure what it costs and saves.")
    var redundancy: Int?

    @Option(
        name: .long,
        help:
            "With --seeds: replay each session in lockstep (deterministic, for misreads) or at the recorded pace (a camera's, for the CPU a till costs)."
    )
    var pace: String = "lockstep"

    /// One reader's line of the table.
    struct Row {
        var score: TillScore
        /// Frames from the item's first single-frame read to its first right report, per item that has both.
        var framesToReport: [Int] = []
        var cpuPercent: Double?
        var seconds: Double?
    }

    func report() async throws -> BenchReport? {
        guard (1...1000).contains(items) else { throw ValidationError("--items must be 1–1000; got \(items)") }
        guard let kind = TillMix.Kind(rawValue: mix) else { throw ValidationError("--mix must be retail or hard; got '\(mix)'") }
        let photos = clutter ? try TillSessions.clutterPhotos(root: PhotoBenchmark.defaultRoots()[0]) : []
        if let seeds {
            var config = ScandConfig()
            if let redundancy {
                guard (1...5).contains(redundancy) else { throw ValidationError("--redundancy must be 1–5; got \(redundancy)") }
                config[section: TrackerSettings.self].redundancy = redundancy
            }
            guard let replayPace = ["lockstep": ReplaySource.Pace.lockstep, "recorded": .recorded][pace] else {
                throw ValidationError("--pace must be lockstep or recorded; got '\(pace)'")
            }
            let many = TillSessions(
                seeds: try TillSessions.parse(seeds), items: items, mix: kind, clutter: photos, config: config, pace: replayPace)
            return many.report(try await many.run())
        }
        let session = TillSession(items: items, seed: seed, mix: kind, clutter: photos)
        let truths = session.appearances.map { a in
            let item = session.items[a.item]
            return TillScore.Truth(expected: item.expected, mainNumber: item.mainNumber, addOn: item.addOn, window: a.start..<a.windowEnd)
        }
        let path = NSTemporaryDirectory() + "scand-till-\(getpid()).rec"
        defer { unlink(path) }
        let perFrame = try Self.recordAndReadEveryFrame(session, truths: truths, to: path)

        let lockstep = [try await Self.replay(path, pace: .lockstep), try await Self.replay(path, pace: .lockstep)]
        let recorded = try await Self.replay(path, pace: .recorded)
        // The same, with the whole-frame passes on every frame as before they became the fallback: what finding
        // first saves, measured in this run.
        let everyFrame = try await Self.replay(path, pace: .recorded, wholeFrameEvery: 1)
        let identical = lockstep[0].scans == lockstep[1].scans

        var rows: [Row] = []
        for (name, replay) in [
            ("scand, lockstep", lockstep[0]), ("scand, lockstep again", lockstep[1]), ("scand, recorded pace", recorded),
            ("scand, recorded pace, whole frame every frame", everyFrame)
        ] {
            let reports = replay.scans.map {
                TillScore.Report(frame: Int($0.frame ?? 0), text: $0.detection.text, format: "\($0.detection.format)")
            }
            var row = Row(score: TillScore(reader: name, reports: reports, truths: truths))
            if name.contains("recorded pace") { (row.cpuPercent, row.seconds) = (replay.run.cpuPercent, replay.run.seconds) }
            rows.append(row)
        }
        rows.append(Row(score: TillScore(reader: "libzbar 0.23, every frame", reports: perFrame.zbar, truths: truths)))
        rows.append(
            Row(score: TillScore(reader: "zxing-cpp \(ZXingDecoder.libraryVersion) defaults, every frame", reports: perFrame.zxing, truths: truths)))
        for i in rows.indices { rows[i].framesToReport = Self.framesToReport(rows[i].score, firstReadable: perFrame.firstReadable) }
        return BenchReport(
            name: "till", table: Self.table(session, rows: rows, identical: identical, firstReadable: perFrame.firstReadable),
            rows: Self.json(session, rows: rows, identical: identical))
    }

    /// What the per-frame readers found, and for each item the first frame a single-frame read succeeds.
    struct PerFrame {
        var zbar: [TillScore.Report]
        var zxing: [TillScore.Report]
        var firstReadable: [Int?]
    }

    /// Writes the recording; meanwhile libzbar and zxing-cpp's defaults read every frame as decoded from its
    /// JPEG, and each item's frames are tried alone, in order, until one reads: zxing's defaults, or scand's
    /// live decoder on that frame alone (its cheap passes), as `firstDecodableFrame` always counted.
    static func recordAndReadEveryFrame(_ session: TillSession, truths: [TillScore.Truth], to path: String) throws -> PerFrame {
        let zbar = ZBarReader(), zxing = ZXingDecoder()
        let live = ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker())
        var zbarFrames: [(frame: Int, texts: [String])] = [], zxingFrames: [(frame: Int, texts: [String])] = []
        var firstReadable = [Int?](repeating: nil, count: session.items.count)
        var a = 0
        try session.record(to: path) { f, grey in
            while a + 1 < session.appearances.count && session.appearances[a + 1].start <= f { a += 1 }
            let appearance = session.appearances[a], truth = truths[a]
            let zxingTexts = zxing.decode(grey, passes: [.zxingDefaults(width: grey.width, height: grey.height)]).detections.map(\.text)
            zxingFrames.append((f, zxingTexts))
            zbarFrames.append((f, TillScore.joiningAddOn(zbar.read(grey), truth: truth)))
            guard appearance.start <= f, f < appearance.end, firstReadable[a] == nil else { return }
            if zxingTexts.contains(where: { TillScore.reading($0, of: truth) == .right }) {
                firstReadable[a] = f
                return
            }
            var decoder = FrameDecoder(decoder: live)
            decoder.extraPassBudgetMilliseconds = 0
            if let read = try? decoder.decode(Frame.yuyv(grey)).detections, read.contains(where: { TillScore.reading($0.text, of: truth) == .right })
            {
                firstReadable[a] = f
            }
        }
        return PerFrame(zbar: TillScore.deduplicated(zbarFrames), zxing: TillScore.deduplicated(zxingFrames), firstReadable: firstReadable)
    }

    static func framesToReport(_ score: TillScore, firstReadable: [Int?]) -> [Int] {
        zip(score.firstRight, firstReadable).compactMap { report, readable in report.flatMap { r in readable.map { r - $0 } } }
    }

    /// One replay of the recording through the live pipeline with the default settings, as `scand run --source
    /// replay:FILE --replay-pace PACE` runs it: its SCANs (times and latencies zeroed, so two replays compare
    /// as their SCAN lines but for times), and what it cost.
    static func replay(
        _ path: String, pace: ReplaySource.Pace, wholeFrameEvery: Int? = nil, config: ScandConfig = ScandConfig()
    ) async throws -> (
        scans: [TrackedCode], run: PipelineRun
    ) {
        let scans = ScanLog()
        var builder = PipelineBuilder(source: .replay(path: path, pace: pace))
        builder.wholeFrameEvery = wholeFrameEvery
        let output = OutputSink(event: { scans.add($0) }, log: { line, level in if level >= .error { scans.problem(line) } })
        let run = await PipelineRun { builder.pipeline(for: config, output: output) }
        // A session that could not be replayed is no session that read nothing.
        let problems = await scans.problems()
        guard run.counters.captured > 0 else {
            throw ValidationError("the replay of \(path) gave no frame: \(problems.last ?? "nothing said why")")
        }
        let zeroed = await scans.all().map { code in
            var c = code
            (c.time, c.latencyMilliseconds) = (Date(timeIntervalSince1970: 0), nil)
            return c
        }
        return (zeroed, run)
    }
}

/// The SCANs of one replay and the errors it logged, written from the decode loop's thread and read once it has
/// ended.
final class ScanLog: Sendable {
    private let scans: AsyncStream<TrackedCode>
    private let writer: AsyncStream<TrackedCode>.Continuation
    private let errors: AsyncStream<String>
    private let errorWriter: AsyncStream<String>.Continuation

    init() {
        (scans, writer) = AsyncStream.makeStream(of: TrackedCode.self)
        (errors, errorWriter) = AsyncStream.makeStream(of: String.self)
    }

    func add(_ event: Event) {
        if case .scan(let code) = event { writer.yield(code) }
    }

    func problem(_ line: String) { errorWriter.yield(line) }

    /// The error lines logged, in order: once, after the run.
    func problems() async -> [String] {
        errorWriter.finish()
        var all: [String] = []
        for await line in errors { all.append(line) }
        return all
    }

    /// Every SCAN in order: once, after the run (no more are taken).
    func all() async -> [TrackedCode] {
        writer.finish()
        var all: [TrackedCode] = []
        for await code in scans { all.append(code) }
        return all
    }
}
