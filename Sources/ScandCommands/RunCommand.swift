import ArgumentParser
import Foundation
import Logging
import ScandCapture
import ScandCore
import ScandDecoding
import ScandService
import ServiceLifecycle

/// `scand run`: the daemon. Opens a camera (or replays a recording) and writes a JSON event for every
/// code it decodes, with DEVICE events as the camera comes and goes.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Scan from a camera (or a recording) and print a JSON event per code."
    )

    @Option(name: .long, help: "Camera: /dev/videoN or a /dev/v4l/by-id/… name.")
    var device: String = "/dev/video0"

    @Option(name: .long, help: "Frame source instead of --device: replay:FILE plays a `scand record` file.")
    var source: String?

    @Option(name: .long, help: "Replay pace: recorded (as captured), fast (as fast as read, dropping what the decoder cannot take) or lockstep (every frame decoded, recorded timestamps: the same events on every run).")
    var replayPace: ReplayPace = .recorded

    @Option(name: .long, help: "Capture size WIDTHxHEIGHT.")
    var size: String = "1280x720"

    @Option(name: .long, help: "Frame rate (default: the camera's highest at that size).")
    var fps: Int?

    @Option(name: .long, help: "Formats to look for (e.g. qr,ean13; or all, linear, matrix).")
    var formats: String = "all"

    @Option(name: .long, help: "Rect of interest x,y,w,h in 0…1 of the oriented frame.")
    var roi: String?

    @Option(name: .long, help: "Rotate frames clockwise by 0, 90, 180 or 270 degrees before decoding.")
    var rotate: Int = 0

    @Flag(name: .long, help: "Mirror frames horizontally (front-facing cameras).")
    var mirror = false

    @Option(name: .long, help: "Stop after this many frames.")
    var frames: Int?

    @Option(name: .long, help: "Milliseconds without a frame before the camera counts as lost.")
    var frameTimeout: Int = 3000

    @Option(name: .long, help: "Seconds without a sighting before a code is LOST.")
    var lostAfter: Double = 0.5

    @Option(name: .long, help: "Seconds after LOST within which the same code shown again is not a new SCAN.")
    var forgetAfter: Double = 2

    @Option(name: .long, help: "Emit UPDATE events with new corners at most this often per code, in seconds (default: none).")
    var updateInterval: Double?

    @Option(name: .long, help: "Agreeing reads before SCAN for a format, FORMAT=N (repeatable; defaults: Codabar, ITF, Code39 3; EAN-8, UPC-E 2; others 1).")
    var confirm: [String] = []

    enum ReplayPace: String, ExpressibleByArgument { case recorded, fast, lockstep }

    func validate() throws {
        _ = try RunSettings.parse(self)
    }

    func run() async throws {
        let settings = try RunSettings.parse(self)
        let output = OutputSink.standard()
        output.event(VersionEvent.json())
        let lockstep = settings.isLockstep
        let pipeline = LivePipeline(source: settings.makeSource(), decoder: settings.decoder, output: output,
                                    captureOptions: settings.captureOptions, tracker: settings.tracker,
                                    clock: { lockstep ? nil : .microseconds(Monotonic.microseconds()) })
        var logger = Logger(label: "scand")
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: PipelineService(pipeline: pipeline, output: output), successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
        if let failure = pipeline.failure {
            output.log(failure)
            throw ExitCode(1)
        }
    }
}

/// `scand run`'s options, checked and turned into the pipeline's parts.
struct RunSettings {
    var source: Source
    var request: V4L2Source.Request
    var decoder: FrameDecoder
    var captureOptions: CaptureLoop.Options
    var tracker: TrackerSettings

    var isLockstep: Bool {
        if case .replay(_, .lockstep) = source { return true }
        return false
    }

    enum Source {
        case device(String)
        case replay(String, ReplaySource.Pace)
    }

    static func parse(_ c: RunCommand) throws -> RunSettings {
        let parts = c.size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else {
            throw ValidationError("--size must be WIDTHxHEIGHT, e.g. 1280x720; got '\(c.size)'")
        }
        if let fps = c.fps, !(1...1000).contains(fps) { throw ValidationError("--fps must be 1…1000") }
        guard let rotation = FrameTransform.Rotation(rawValue: c.rotate) else { throw ValidationError("--rotate must be 0, 90, 180 or 270") }
        let formats: BarcodeFormats
        do { formats = try BarcodeFormats.parse(c.formats) } catch { throw ValidationError(error.description) }
        var roi = NormalizedRect.full
        if let text = c.roi {
            do { roi = try NormalizedRect.parse(text) } catch { throw ValidationError(error.description) }
        }
        if let n = c.frames, n < 1 { throw ValidationError("--frames must be at least 1") }
        guard c.frameTimeout >= 100 else { throw ValidationError("--frame-timeout must be at least 100 ms") }
        var source = Source.device(c.device)
        if let s = c.source {
            guard s.hasPrefix("replay:"), s.count > 7 else { throw ValidationError("--source must be replay:FILE; got '\(s)'") }
            let pace: ReplaySource.Pace = switch c.replayPace {
            case .recorded: .recorded
            case .fast: .asFastAsPossible
            case .lockstep: .lockstep
            }
            source = .replay(String(s.dropFirst(7)), pace)
        }
        var tracker = TrackerSettings()
        for (name, value) in [("--lost-after", c.lostAfter), ("--forget-after", c.forgetAfter)] where !(value >= 0 && value <= 3600) {
            throw ValidationError("\(name) must be 0…3600 seconds")
        }
        tracker.lostAfter = .milliseconds(Int(c.lostAfter * 1000))
        tracker.forgetAfter = .milliseconds(Int(c.forgetAfter * 1000))
        if let u = c.updateInterval {
            guard u > 0 && u <= 3600 else { throw ValidationError("--update-interval must be 0…3600 seconds") }
            tracker.updateInterval = .milliseconds(Int(u * 1000))
        }
        for item in c.confirm {
            let kv = item.split(separator: "=")
            guard kv.count == 2, let f = BarcodeFormat(name: String(kv[0])), let n = Int(kv[1]), (1...30).contains(n) else {
                throw ValidationError("--confirm must be FORMAT=N with N in 1…30; got '\(item)'")
            }
            tracker.confirmations[f] = n
        }
        var options = CaptureLoop.Options()
        options.lossless = c.source != nil && c.replayPace == .lockstep
        options.maxFrames = c.frames
        options.frameTimeoutMilliseconds = c.frameTimeout
        return RunSettings(
            source: source, request: V4L2Source.Request(width: w, height: h, framesPerSecond: c.fps),
            decoder: FrameDecoder(formats: formats, regionOfInterest: roi, transform: FrameTransform(rotation: rotation, mirrored: c.mirror)),
            captureOptions: options, tracker: tracker)
    }

    func makeSource() -> FrameSource {
        switch source {
        case .device(let path): V4L2Source(path: path, request: request)
        case .replay(let path, let pace): ReplaySource(path: path, pace: pace)
        }
    }
}

/// The first line scand writes: who is speaking, gpsd-style.
enum VersionEvent {
    static func json() -> String {
        JSONValue.object([("class", .string("VERSION")), ("release", .string(ScandVersion.string)),
                          ("zxing", .string(ZXingDecoder.libraryVersion))]).serialized()
    }
}
