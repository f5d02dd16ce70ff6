import ArgumentParser
import Foundation
import ScandBenchScenes
import ScandCapture
import ScandCore
import ScandProtocol
import ScandDecoding
import ScandPipeline

/// `scand bench mjpeg`: a 1080p30 MJPEG recording with codes through the live pipeline twice — scand
/// decoding the JPEG frames itself (grey only, and only the frames the decoder takes) and libv4lconvert
/// converting every frame to YU12 first, as libv4l2 does for an MJPEG-only camera — with the CPU each costs,
/// and each converter alone on the same JPEG frames.
struct MJPEGBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "mjpeg",
        abstract: "MJPEG natively (libjpeg-turbo, grey, frames the decoder takes) against libv4lconvert converting every frame."
    )

    @Option(name: .long, help: "Frame size.")
    var size: String = "1920x1080"

    @Option(name: .long, help: "Camera rate of the recording.")
    var fps: Int = 30

    @Option(name: .long, help: "Seconds of recording per run.")
    var seconds: Int = 5

    @OptionGroup var output: BenchOutput

    struct Converter {
        var name: String
        var frames: Int
        var cpuSeconds: Double
        var perSecond: Double { Double(frames) / cpuSeconds }
        var milliseconds: Double { cpuSeconds * 1000 / Double(frames) }
    }

    func report() async throws -> BenchReport? {
        guard let (w, h) = ScandConfig.parseSize(size), w >= 320, h >= 240 else {
            throw ValidationError("--size must be WIDTHxHEIGHT of at least 320x240; got '\(size)'")
        }
        guard fps >= 1, seconds >= 1 else { throw ValidationError("--fps and --seconds must be at least 1") }
        let jpegs = try Self.frames(width: w, height: h)
        let path = NSTemporaryDirectory() + "scand-bench-mjpeg-\(getpid()).rec"
        defer { unlink(path) }
        let format = jpegs[0].format
        let writer = try Recording.Writer(path: path, format: format)
        let interval = UInt64(1_000_000 / fps)
        for i in 0..<(fps * seconds) {
            var f = jpegs[i % jpegs.count]
            (f.sequence, f.timestampMicroseconds) = (UInt64(i), UInt64(i) * interval)
            try writer.append(f)
        }
        try writer.finish()

        let native = await Self.pipelineRun { ReplaySource(path: path) }
        let converted = await Self.pipelineRun { ConvertingReplay(path: path) }
        let converters = Self.converters(jpegs.map(\.bytes), width: w, height: h)
        return BenchReport(
            name: "mjpeg", table: table(native: native, converted: converted, converters: converters, width: w, height: h),
            rows: json(native: native, converted: converted, converters: converters))
    }

    /// A ticket (a QR code and a Code 128) under sensor noise, fresh in each of 16 frames (as a camera's:
    /// no two alike, so none is skipped as static), as the JPEG frames of a webcam's MJPEG stream.
    static func frames(width: Int, height: Int) throws -> [Frame] {
        guard let page = try FramesBench.scene(width: width, height: height).luma() else { throw ValidationError("no luma in the scene") }
        var rng = Xorshift(seed: 11)
        let encoder = MJPEGEncoder()
        return (0..<16).map { _ in
            var noisy = page
            for i in noisy.pixels.indices { noisy.pixels[i] = UInt8(clamping: Int(noisy.pixels[i]) + Int(rng.next() % 9) - 4) }
            return encoder.frame(noisy)
        }
    }

    /// The two pipelines, scand's and libv4lconvert's.
    static let paths = ["scand: MJPEG natively (libjpeg-turbo, grey)", "libv4lconvert: every frame to YU12"]

    /// Its `decompressed`, scand's: the frames its decoder took and did not judge still from their eighth-size picture.
    static func pipelineRun(_ source: () -> FrameSource) async -> PipelineRun {
        await PipelineRun { LivePipeline(source: source(), decoder: FrameDecoder(), output: OutputSink(event: { _ in }, log: { _ in })) }
    }

    /// Each converter alone over the same JPEG frames, on this thread: its CPU per frame.
    static func converters(_ jpegs: [[UInt8]], width: Int, height: Int, rounds: Int = 4) -> [Converter] {
        let grey = MJPEGDecoder(), v4l = V4LConvert()
        var pixels = [UInt8](repeating: 0, count: width * height), yu12 = [UInt8](repeating: 0, count: width * height * 3 / 2)
        func measure(_ name: String, _ body: ([UInt8]) -> Bool) -> Converter {
            let start = threadCPUSeconds()
            var frames = 0
            for _ in 0..<rounds {
                for j in jpegs where body(j) { frames += 1 }
            }
            return Converter(name: name, frames: frames, cpuSeconds: threadCPUSeconds() - start)
        }
        return [
            measure("libjpeg-turbo to grey (scand)") { j in
                j.withUnsafeBytes { src in pixels.withUnsafeMutableBytes { grey.decodeGrey(src, width: width, height: height, into: $0) == nil } }
            },
            measure("libv4lconvert to YU12") { j in v4l.yu12(j, width: width, height: height, into: &yu12) }
        ]
    }

    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    func table(native: PipelineRun, converted: PipelineRun, converters: [Converter], width: Int, height: Int) -> String {
        var lines = [
            "| path | frame size | camera fps | frames | decoded | dropped | corrupt | codes | scans | CPU, % of a core | JPEG frames converted | conversion, % of a core |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"
        ]
        // What each pipeline converted: scand the frames its decoder decoded whole, libv4lconvert every frame.
        let conversion = [
            (Self.paths[0], native, native.decompressed, converters[0]),
            (Self.paths[1], converted, converted.counters.captured, converters[1])
        ]
        for (path, run, frames, converter) in conversion {
            let c = run.counters
            let share = Double(frames) * converter.milliseconds / 10 / run.seconds
            lines.append(
                "| \(path) | \(width)x\(height) | \(fps) | \(c.captured) | \(c.decoded) | \(c.dropped) | \(c.corrupt) | \(c.codes) | \(c.scans) | "
                    + String(format: "%.1f", run.cpuPercent) + " | \(frames) | " + String(format: "%.1f", share) + " |")
        }
        lines += ["", "| converter, alone on the same JPEG frames | frames | frames per second of one core | CPU ms per frame |", "|---|---|---|---|"]
        for c in converters {
            lines.append("| \(c.name) | \(c.frames) | " + String(format: "%.1f | %.2f", c.perSecond, c.milliseconds) + " |")
        }
        lines.append(
            "\nCPU of the whole pipeline, libv4lconvert's over scand's: "
                + String(format: "%.2fx", converted.cpuPercent / max(native.cpuPercent, 0.001))
                + "; of the conversion alone: "
                + String(
                    format: "%.2fx",
                    Double(conversion[1].2) * converters[1].milliseconds / max(Double(conversion[0].2) * converters[0].milliseconds, 0.001)))
        return lines.joined(separator: "\n")
    }

    func json(native: PipelineRun, converted: PipelineRun, converters: [Converter]) -> JSONValue {
        .object([
            (
                "pipelines",
                .array(
                    zip(Self.paths, [native, converted]).map { path, r in
                        .object([
                            ("path", .string(path)), ("size", .string(size)), ("fps", .int(fps)), ("captured", .int(r.counters.captured)),
                            ("decoded", .int(r.counters.decoded)), ("dropped", .int(r.counters.dropped)), ("corrupt", .int(r.counters.corrupt)),
                            ("codes", .int(r.counters.codes)), ("scans", .int(r.counters.scans)),
                            ("cpuPercentOfACore", .number(r.cpuPercent, places: 1))
                        ])
                    })
            ),
            (
                "converters",
                .array(
                    converters.map { c in
                        .object([
                            ("converter", .string(c.name)), ("frames", .int(c.frames)), ("framesPerSecond", .number(c.perSecond, places: 1)),
                            ("cpuMsPerFrame", .number(c.milliseconds, places: 2))
                        ])
                    })
            )
        ])
    }
}
