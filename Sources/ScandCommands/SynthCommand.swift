import ArgumentParser
import ScandCapture
import ScandCore

/// `scand synth`: frames with known codes drawn by zxing's writer, as a recording (for `run --source
/// replay:`) or raw (for `v4l2-ctl --stream-from`, to feed a virtual camera). Codes may come and go on a
/// schedule that loops, so that a replay scans them while clients watch. Tests and benchmarks use it.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Write generated YUYV or MJPEG frames holding known codes.",
        discussion: """
            --code FORMAT:TEXT@X,Y places a code centred at X,Y (0…1 of the frame) in every frame; repeat it for \
            several. --code FORMAT:TEXT@X,Y,FROM-UNTIL shows it from FROM until UNTIL seconds into each loop, and \
            --loops N writes the loop N times: for example

              scand synth --size 640x480 --fps 10 --pixel-format MJPG --loops 30 \\
                --loop-seconds 6 --code QRCode:hello@0.5,0.5,0-2 \\
                --code EAN13:4006381333931@0.5,0.5,3-5 demo.rec
              scand run --source replay:demo.rec

            scans each code once a loop (a code away longer than --lost-after plus --forget-after is scanned again).
            """
    )

    /// Bounds that keep the frames' count and stamps (frame × 10^6 / fps µs) far from overflowing.
    static let maxFrames = 100_000_000
    static let maxFramesPerSecond = 1000

    @Option(name: .long, help: ArgumentHelp("Frame size WIDTHxHEIGHT.", valueName: "WxH"))
    var size: String = "1280x720"

    @Option(name: .long, help: ArgumentHelp("Number of frames (default: 30, or --loops loops when codes come and go).", valueName: "N"))
    var frames: Int?

    @Option(name: .long, help: ArgumentHelp("Frames per second of the recording's timestamps (1…1000).", valueName: "N"))
    var fps: Int = 30

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A code: FORMAT:TEXT@X,Y in every frame, or FORMAT:TEXT@X,Y,FROM-UNTIL from FROM until UNTIL s into each loop.",
            valueName: "FORMAT:TEXT@X,Y"))
    var code: [String] = []

    @Option(
        name: .long, help: ArgumentHelp("Times the loop is written (codes with FROM-UNTIL, or --loop-seconds); not with --frames.", valueName: "N"))
    var loops: Int?

    @Option(name: .long, help: ArgumentHelp("One loop's length in seconds (default: until the last code leaves).", valueName: "S"))
    var loopSeconds: Double?

    @Option(name: .long, help: ArgumentHelp("Pixels per module (fewer for a code that would not fit the frame).", valueName: "N"))
    var moduleSize: Int = 4

    @Option(
        name: .long,
        help: ArgumentHelp("YUYV, or MJPG: JPEG frames as a webcam's MJPEG stream sends them (libjpeg-turbo, 4:2:2).", valueName: "FOURCC"))
    var pixelFormat: String = "YUYV"

    @Flag(name: .long, help: "Frames back to back without header (v4l2-ctl's raw format).")
    var raw = false

    @Argument(help: "Output file.")
    var output: String

    /// The frames to write: --frames, else the loops' frames, else 30.
    func frameCount(_ schedule: CodeSchedule) throws -> Int {
        if let frames {
            guard loops == nil else { throw ValidationError("give --frames or --loops, not both") }
            guard (1...Self.maxFrames).contains(frames) else { throw ValidationError("--frames must be 1…\(Self.maxFrames); got \(frames)") }
            return frames
        }
        guard let perLoop = schedule.framesPerLoop(fps) else {
            if loops != nil { throw ValidationError("--loops needs a code shown FROM-UNTIL (FORMAT:TEXT@X,Y,FROM-UNTIL) or --loop-seconds") }
            return 30
        }
        let n = loops ?? 1
        guard n >= 1, n <= Self.maxFrames / perLoop else {
            throw ValidationError("--loops must be 1…\(max(1, Self.maxFrames / perLoop)) (\(perLoop) frames a loop); got \(n)")
        }
        return n * perLoop
    }

    func run() throws {
        let (w, h) = try sizeOption(size)
        guard (1...Self.maxFramesPerSecond).contains(fps) else { throw ValidationError("--fps must be 1…\(Self.maxFramesPerSecond); got \(fps)") }
        guard (1...64).contains(moduleSize) else { throw ValidationError("--module-size must be 1…64; got \(moduleSize)") }
        let fourcc = FourCC(pixelFormat.uppercased())
        guard fourcc == .yuyv || fourcc == .mjpeg, pixelFormat.utf8.count <= 4 else {
            throw ValidationError("--pixel-format must be YUYV or MJPG; got '\(pixelFormat)'")
        }
        if fourcc == .mjpeg && raw { throw ValidationError("--raw writes YUYV only: MJPEG frames need the recording's frame lengths") }
        let schedule = try CodeSchedule(codes: code.map(CodeSchedule.code), loopSeconds: loopSeconds)
        let count = try frameCount(schedule)
        let (pages, order) = try schedule.pictures(width: w, height: h, framesPerSecond: fps, moduleSize: moduleSize)
        // Each picture encoded once; frames showing it share its bytes.
        let pictures = pages.map { fourcc == .mjpeg ? MJPEGEncoder().frame($0) : Frame.yuyv($0) }
        // A file that cannot be written is EX_IOERR (74), as for `scand record`: one line, no usage.
        do {
            let writer = try Recording.Writer(path: output, format: pictures[0].format, raw: raw)
            let interval = UInt64(1_000_000 / fps)
            for i in 0..<count {
                var frame = pictures[order[i % order.count]]
                (frame.sequence, frame.timestampMicroseconds) = (UInt64(i), UInt64(i) * interval)
                try writer.append(frame)
            }
            try writer.finish()
        } catch {
            printErr("cannot write \(error)")
            throw ExitCode(ExitStatus.ioError)
        }
    }
}
