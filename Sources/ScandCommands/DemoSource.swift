import ScandCapture
import ScandCore

/// `scand run --source demo`: scand at work without a camera (docs/daemon.md), each code shown 2 s with half
/// a second between them, stamped live. Each showing is one SCAN and one LOST (a code is away 7.5 s, longer
/// than it takes to be lost and forgotten). Each picture is drawn once and its frames share it: the demo
/// costs what decoding 640x480 at 10 frames a second costs, and nothing while the page is empty.
enum DemoSource {
    static let width = 640
    static let height = 480
    static let framesPerSecond = 10

    static let codes: [CodeSchedule.Code] = [
        .init(format: .qrCode, text: "Hello from scand", x: 0.5, y: 0.5, shown: 0..<2),
        .init(format: .ean13, text: "4006381333931", x: 0.45, y: 0.55, shown: 2.5..<4.5),
        .init(format: .code128, text: "SCAND-DEMO-128", x: 0.5, y: 0.45, shown: 5..<7),
        .init(format: .dataMatrix, text: "scand demo DataMatrix", x: 0.55, y: 0.5, shown: 7.5..<9.5)
    ]

    /// The demo's loop as a synthetic source's playlist. Throws only if zxing's writer refused a code.
    static func playlist() throws -> SyntheticSource.Playlist {
        let schedule = try CodeSchedule(codes: codes, loopSeconds: 10)
        let (pages, order) = try schedule.pictures(width: width, height: height, framesPerSecond: framesPerSecond, moduleSize: 4)
        let pictures = pages.map { Frame.yuyv($0) }
        return SyntheticSource.Playlist(name: "demo", frames: order.map { pictures[$0] }, framesPerSecond: framesPerSecond)
    }
}
