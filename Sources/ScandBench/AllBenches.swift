import ArgumentParser

/// `scand bench` (or `scand bench all`): every benchmark in one run, side by side — live frames at a
/// camera's pace, scand vs zxing's defaults vs libzbar on the same frames, and the real photos when present.
struct AllBenches: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all",
        abstract: "Run every benchmark (frames, compare, preview, photos when present, till, journal, mjpeg, socket) and print their tables."
    )

    @Option(
        name: .long,
        help: "Seconds per frame size and scene in the frames benchmark, and per run of preview and mjpeg; a socket run is three times as long.")
    var seconds: Int = 5

    @Option(name: .long, help: "Frame sizes of the frames benchmark, comma-separated (default: all three).")
    var sizes: String?

    @Option(name: .long, help: "Scenes of the frames benchmark, comma-separated (default: all four).")
    var scenes: String?

    @Option(name: .long, help: "Frames of the compare benchmark.")
    var compareFrames: Int = 180

    @Option(
        name: .long,
        help: "Folder of photo folders (default: ../shared/testdata/zxing-cpp-1.4.0-samples and ../shared/testdata/quagga2-dev; skipped when absent)."
    )
    var root: String?

    @Option(name: .long, help: "Items of the till session (1–1000).")
    var tillItems: Int = 100

    @Option(name: .long, help: "Also write every table as one JSON object to this file.")
    var json: String?

    func run() async throws {
        var reports: [BenchReport] = []
        var frames = try FramesBench.parse([])
        frames.seconds = seconds
        if let sizes { frames.sizes = sizes }
        if let scenes { frames.scenes = scenes }
        var compare = try CompareBench.parse([])
        compare.frames = compareFrames
        var preview = try PreviewBench.parse([])
        preview.seconds = seconds
        var photos = try PhotosBench.parse([])
        photos.root = root
        let journal = try JournalBench.parse([])
        var mjpeg = try MJPEGBench.parse([])
        mjpeg.seconds = seconds
        var till = try TillBench.parse([])
        till.items = tillItems
        var socket = try SocketBench.parse([])
        // Three times as long as a frames row: the default 5 s gives the socket bench's own 1,500 frames.
        socket.frames = max(1, seconds) * 3 * socket.fps
        let benches: [any Bench] = [frames, compare, preview, photos, journal, mjpeg, till, socket]
        for bench in benches {
            guard let r = try await bench.report() else {
                let name = type(of: bench).configuration.commandName ?? ""
                print("\n## \(name)\n\nskipped: no photos under \(root ?? PhotoBenchmark.defaultRoots().joined(separator: " or "))")
                continue
            }
            print("\n## \(r.name)\n\n" + r.table)
            reports.append(r)
        }
        if let json { try BenchReport.write(reports, to: json) }
    }
}
