import ArgumentParser
import Logging
import ScandCapture
import ScandCore
import ScandLogging

/// `scand record`: saves frames as the camera sends them (raw, or MJPEG's JPEG frames) with their format, for
/// replay (`scand run --source replay:FILE`) and for bug reports.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Save raw camera frames to a file that `scand run --source replay:FILE` plays back."
    )

    @Option(name: .long, help: ArgumentHelp("Camera: /dev/videoN or a /dev/v4l/by-id/… name.", valueName: "DEVICE"))
    var device: String = "/dev/video0"

    @Option(name: .long, help: ArgumentHelp("Number of frames.", valueName: "N"))
    var frames: Int = 30

    @Option(name: .long, help: ArgumentHelp("Capture size WIDTHxHEIGHT.", valueName: "WxH"))
    var size: String = "1280x720"

    @Option(name: .long, help: ArgumentHelp("Frame rate (default: the camera's highest at that size).", valueName: "N"))
    var fps: Int?

    @Option(name: .long, help: ArgumentHelp("Pixel format (YUYV, MJPG, …; default: what `scand run` would choose).", valueName: "FOURCC"))
    var pixelFormat: String?

    @Argument(help: "Output file.")
    var output: String

    func run() throws {
        let (w, h) = try sizeOption(size)
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        let source = V4L2Source(
            path: device, request: .init(width: w, height: h, framesPerSecond: fps, pixelFormat: pixelFormat.map { FourCC($0.uppercased()) }))
        do {
            let format = try source.open()
            defer { source.close() }
            let writer = try Recording.Writer(path: output, format: format)
            var written = 0, waited = 0
            while written < frames {
                guard let frame = try source.nextFrame(timeoutMilliseconds: 200) else {
                    waited += 200
                    if waited >= 3000 { throw CaptureError(.noFrames, path: device, detail: "none within 3000 ms") }
                    continue
                }
                waited = 0
                try writer.append(frame)
                written += 1
            }
            try writer.finish()
            Logger.standardError("recorded \(written) frames of \(format) to \(output)", .notice)
        } catch {
            printErr("\(error)")
            throw ExitCode(ExitStatus.ioError)
        }
    }
}

func printErr(_ line: String) {
    Logger.standardError(line, .error)
}
