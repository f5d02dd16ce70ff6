import ArgumentParser
import Foundation
import ScandBenchScenes
import ScandCapture
import ScandCore
import ScandProtocol
import ScandDecoding
import ScandPipeline

/// `scand bench frames`: the live pipeline on generated frames at a camera's pace — how many frames a
/// second are decoded and how many are dropped, per frame size.
struct FramesBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Decoded and dropped frames per second of the live pipeline at several frame sizes."
    )

    @Option(name: .long, help: "Frame sizes, comma-separated.")
    var sizes: String = "640x480,1280x720,1920x1080"

    @Option(name: .long, help: "Camera rate to replay at.")
    var fps: Int = 30

    @Option(name: .long, help: "Seconds per size.")
    var seconds: Int = 5

    @OptionGroup var output: BenchOutput

    @Option(
        name: .long,
        help:
            "Scenes, comma-separated: one (a QR code), ticket (a QR code and a Code 128), empty (a static scene without codes), busy (a panning textured surface with noise, no code), clutter and clutter-still (a counter cluttered with photos that look like codes, panning or still, as MJPEG; needs the shared test data), qr16 and qr50 (a grid of QR codes)."
    )
    var scenes: String = FramesBench.defaultScenes.joined(separator: ",")

    @Option(name: .long, help: "Run the whole-frame passes on one frame in N (1: every frame; default: the daemon's).")
    var wholeFrameEvery: Int?

    static let sceneNames = ["one", "ticket", "empty", "busy", "clutter", "clutter-still", "qr16", "qr50"]
    /// The scenes run by default: all but the cluttered counter's, which need the shared test data's photos.
    static let defaultScenes = ["one", "ticket", "empty", "busy", "qr16", "qr50"]

    struct Row {
        var size: String
        var scene: String
        var run: PipelineRun
        /// The run's CPU time per decoded frame, milliseconds.
        var cpuMsPerDecode: Double { run.cpuSeconds * 1000 / Double(max(1, run.counters.decoded)) }
    }

    func report() async throws -> BenchReport? {
        var rows: [Row] = []
        let names = scenes.split(separator: ",").map(String.init)
        for scene in names where !Self.sceneNames.contains(scene) {
            throw ValidationError("unknown scene '\(scene)'; the scenes are \(Self.sceneNames.joined(separator: ", "))")
        }
        let photos = names.contains { $0.hasPrefix("clutter") } ? try TillSessions.clutterPhotos(root: PhotoBenchmark.defaultRoots()[0]) : []
        for scene in names {
            for size in sizes.split(separator: ",") {
                guard let (w, h) = ScandConfig.parseSize(String(size)) else {
                    throw ValidationError("--sizes must be WIDTHxHEIGHTs, e.g. 640x480,1280x720; got '\(size)'")
                }
                guard w >= 320, h >= 240 else { throw ValidationError("--sizes: the scenes need at least 320x240") }
                let frames: [Frame] =
                    switch scene {
                    case "one": [try Self.oneCode(width: w, height: h)]
                    case "ticket": [try Self.scene(width: w, height: h)]
                    case "busy": Self.busy(width: w, height: h)
                    case "clutter", "clutter-still": ClutterScene.frames(width: w, height: h, photos: photos, panning: scene == "clutter")
                    case "qr16": [try Self.qrGrid(16, width: w, height: h)]
                    case "qr50": [try Self.qrGrid(50, width: w, height: h)]
                    default: [Frame.yuyv(LumaImage(width: w, height: h, fill: 180))]
                    }
                if let wholeFrameEvery, !(1...1000).contains(wholeFrameEvery) { throw ValidationError("--whole-frame-every must be 1–1000") }
                let run = await PipelineRun {
                    var decoder = FrameDecoder()
                    decoder.wholeFrameEvery = wholeFrameEvery ?? decoder.wholeFrameEvery
                    return LivePipeline(
                        source: SyntheticSource(frames: frames, count: fps * seconds, framesPerSecond: fps), decoder: decoder,
                        output: OutputSink(event: { _ in }, log: { _ in }))
                }
                rows.append(Row(size: String(size), scene: scene, run: run))
            }
        }
        let value = JSONValue.array(
            rows.map { r in
                let c = r.run.counters
                var fields: [(String, JSONValue)] = [
                    ("scene", .string(r.scene)), ("size", .string(r.size)), ("fps", .int(fps)), ("captured", .int(c.captured)),
                    ("dropped", .int(c.dropped)), ("decoded", .int(c.decoded)), ("skippedStatic", .int(c.skippedStatic)),
                    ("decodedPerSecond", JSONValue.number(Double(c.decoded) / r.run.seconds, places: 1)),
                    ("msPerDecode", JSONValue.number(c.decodeMillisecondsMean, places: 1)),
                    ("codes", .int(c.codes)), ("cpuPercentOfACore", JSONValue.number(r.run.cpuPercent, places: 1)),
                    ("cpuMsPerDecode", JSONValue.number(r.cpuMsPerDecode, places: 1)),
                    ("rssStartMiB", JSONValue.number(r.run.rssBefore, places: 1)), ("rssEndMiB", JSONValue.number(r.run.rssAfter, places: 1))
                ]
                if let p = c.latencyP50Milliseconds { fields.append(("latencyP50Ms", JSONValue.number(p, places: 1))) }
                if let p = c.latencyP99Milliseconds { fields.append(("latencyP99Ms", JSONValue.number(p, places: 1))) }
                return .object(fields)
            })
        return BenchReport(name: "frames", table: Self.table(rows, fps: fps), rows: value)
    }

    /// A light page with one QR code in the middle.
    static func oneCode(width: Int, height: Int) throws -> Frame {
        var page = LumaImage(width: width, height: height, fill: 225)
        let qr = try SymbolWriter.render(.qrCode, text: "https://example.org/ticket/0042", moduleSize: max(2, width / 400))
        page.paste(qr, x: width / 2 - qr.width / 2, y: height / 2 - qr.height / 2)
        return Frame.yuyv(page)
    }

    /// A textured surface (a patterned counter or bag: a grain pattern with fine speckle) panning 9 px a frame,
    /// with fresh sensor noise in every frame and no code: no two frames are alike, so every one is decoded,
    /// and nothing may be found. On it zxing-cpp 3.1.1 alone, rotation, pyramid and inversion off, takes about
    /// 19 ms a 720p frame on this machine (half as much again as the busy camera scene scand's targets were
    /// set on).
    static func busy(width: Int, height: Int, frames: Int = 16) -> [Frame] {
        var rng = Xorshift(seed: 7)
        let pan = 9, stride = width + pan * frames
        // Speckle fixed to the surface (it moves with the pan), noise fresh in each frame.
        let speckle = (0..<(stride * height)).map { _ in Int(rng.next() % 13) - 6 }
        return (0..<frames).map { f in
            var page = LumaImage(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x + f * pan), v = Double(y)
                    let grain = 50 * sin(u / 23 + 0.8 * sin(v / 31)) * cos(v / 17 + 0.5 * sin(u / 41))
                    let value = 128 + Int(grain) + speckle[y * stride + x + f * pan] + Int(rng.next() % 9) - 4
                    page[x, y] = UInt8(clamping: value)
                }
            }
            return Frame.yuyv(page)
        }
    }

    /// A light page with a QR code and a Code 128 near the middle, as a kiosk camera sees a ticket.
    static func scene(width: Int, height: Int) throws -> Frame {
        var page = LumaImage(width: width, height: height, fill: 225)
        let module = max(2, width / 400)
        let qr = try SymbolWriter.render(.qrCode, text: "https://example.org/ticket/0042", moduleSize: module)
        let bar = try SymbolWriter.render(.code128, text: "TICKET-0042", moduleSize: module)
        page.paste(qr, x: width / 3 - qr.width / 2, y: height / 2 - qr.height / 2)
        page.paste(bar, x: 2 * width / 3 - bar.width / 2, y: height / 2 - bar.height / 2)
        return Frame.yuyv(page)
    }

    /// `count` QR codes in a grid filling the frame.
    static func qrGrid(_ count: Int, width: Int, height: Int) throws -> Frame {
        var page = LumaImage(width: width, height: height, fill: 225)
        let columns = Int((Double(count) * Double(width) / Double(height)).squareRoot().rounded(.up))
        let rows = (count + columns - 1) / columns
        let cell = min(width / columns, height / rows)
        for i in 0..<count {
            var module = 1
            var qr = try SymbolWriter.render(.qrCode, text: "grid code \(i)", moduleSize: module)
            while qr.width * (module + 1) / module <= cell * 8 / 10 {
                module += 1
                qr = try SymbolWriter.render(.qrCode, text: "grid code \(i)", moduleSize: module)
            }
            let cx = (i % columns) * (width / columns) + width / columns / 2, cy = (i / columns) * (height / rows) + height / rows / 2
            page.paste(qr, x: cx - qr.width / 2, y: cy - qr.height / 2)
        }
        return Frame.yuyv(page)
    }

    /// Resident set size from /proc/self/statm.
    static func residentMiB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = Double(text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0)
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// User and system CPU of this process and its reaped children (the decoder's forks).
    static func cpuSeconds() -> Double {
        var own = rusage(), children = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &own)
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &children)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(own.ru_utime) + seconds(own.ru_stime) + seconds(children.ru_utime) + seconds(children.ru_stime)
    }

    static func table(_ rows: [Row], fps: Int) -> String {
        var lines = [
            "| scene | frame size | camera fps | frames | decoded | skipped (static) | dropped | decoded/s | ms per decode | codes per decoded frame | latency p50 / p99 ms | CPU, % of a core | CPU ms per decoded frame | RSS start / end MiB |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        ]
        for r in rows {
            let c = r.run.counters
            let perFrame = Double(c.codes) / Double(max(1, c.decoded))
            let latency = [c.latencyP50Milliseconds, c.latencyP99Milliseconds].map { $0.map { String(format: "%.0f", $0) } ?? "-" }.joined(
                separator: " / ")
            lines.append(
                "| \(r.scene) | \(r.size) | \(fps) | \(c.captured) | \(c.decoded) | \(c.skippedStatic) | \(c.dropped) | "
                    + String(format: "%.1f | %.1f | %.2f", Double(c.decoded) / r.run.seconds, c.decodeMillisecondsMean, perFrame)
                    + " | \(latency) | "
                    + String(format: "%.1f | %.1f | %.0f / %.0f", r.run.cpuPercent, r.cpuMsPerDecode, r.run.rssBefore, r.run.rssAfter) + " |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
