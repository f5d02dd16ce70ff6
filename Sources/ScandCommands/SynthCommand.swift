import ArgumentParser
import ScandCapture
import ScandCore
import ScandDecoding

/// `scand synth`: frames with known codes drawn by zxing's writer, as a recording (for `run --source
/// replay:`) or raw (for `v4l2-ctl --stream-from`, to feed a virtual camera). Tests and benchmarks use it.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Write generated YUYV or MJPEG frames holding known codes.",
        discussion: "--code FORMAT:TEXT@X,Y places a code centred at X,Y (0…1 of the frame); repeat it for several."
    )

    @Option(name: .long, help: "Frame size WIDTHxHEIGHT.")
    var size: String = "1280x720"

    @Option(name: .long, help: "Number of frames.")
    var frames: Int = 30

    @Option(name: .long, help: "Frames per second of the recording's timestamps.")
    var fps: Int = 30

    @Option(name: .long, help: "A code: FORMAT:TEXT@X,Y.")
    var code: [String] = []

    @Option(name: .long, help: "Pixels per module.")
    var moduleSize: Int = 4

    @Option(name: .long, help: "YUYV, or MJPG: JPEG frames as a webcam's MJPEG stream sends them (libjpeg-turbo, 4:2:2).")
    var pixelFormat: String = "YUYV"

    @Flag(name: .long, help: "Frames back to back without header (v4l2-ctl's raw format).")
    var raw = false

    @Argument(help: "Output file.")
    var output: String

    struct Placement {
        var format: BarcodeFormat
        var text: String
        var x: Double
        var y: Double
    }

    static func parse(_ spec: String) throws -> Placement {
        guard let colon = spec.firstIndex(of: ":"), let at = spec.lastIndex(of: "@"), colon < at,
            let format = BarcodeFormat(name: String(spec[..<colon]))
        else {
            throw ValidationError("--code must be FORMAT:TEXT@X,Y; got '\(spec)'")
        }
        let xy = spec[spec.index(after: at)...].split(separator: ",")
        guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]), (0...1).contains(x), (0...1).contains(y) else {
            throw ValidationError("--code position must be X,Y in 0…1; got '\(spec)'")
        }
        return Placement(format: format, text: String(spec[spec.index(after: colon)..<at]), x: x, y: y)
    }

    func run() throws {
        let (w, h) = try sizeOption(size)
        guard frames >= 1, fps >= 1 else { throw ValidationError("--frames and --fps must be at least 1") }
        let fourcc = FourCC(pixelFormat.uppercased())
        guard fourcc == .yuyv || fourcc == .mjpeg, pixelFormat.utf8.count <= 4 else {
            throw ValidationError("--pixel-format must be YUYV or MJPG; got '\(pixelFormat)'")
        }
        if fourcc == .mjpeg && raw { throw ValidationError("--raw writes YUYV only: MJPEG frames need the recording's frame lengths") }
        var page = LumaImage(width: w, height: h, fill: 235)
        for spec in code {
            let p = try Self.parse(spec)
            let symbol: LumaImage
            do { symbol = try SymbolWriter.render(p.format, text: p.text, moduleSize: moduleSize) } catch {
                throw ValidationError(error.description)
            }
            page.paste(symbol, x: Int(p.x * Double(w)) - symbol.width / 2, y: Int(p.y * Double(h)) - symbol.height / 2)
        }
        let picture = fourcc == .mjpeg ? MJPEGEncoder().frame(page) : Frame.yuyv(page)
        let writer = try Recording.Writer(path: output, format: picture.format, raw: raw)
        let interval = UInt64(1_000_000 / fps)
        for i in 0..<frames {
            var frame = picture
            (frame.sequence, frame.timestampMicroseconds) = (UInt64(i), UInt64(i) * interval)
            try writer.append(frame)
        }
        try writer.finish()
    }
}
