import ArgumentParser
import Foundation
import ScandCore
import ScandDecoding

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure scand against other readers.",
        subcommands: [AllBenches.self, PhotosBench.self, FramesBench.self, CompareBench.self],
        defaultSubcommand: AllBenches.self
    )
}

/// What one benchmark measured: a Markdown table for people, the same rows as JSON for tools.
struct BenchReport {
    var name: String
    var table: String
    var rows: JSONValue

    /// Prints the table; writes `{"bench": rows}` to `json` when asked.
    func emit(json: String?) throws {
        print(table)
        if let json { try BenchReport.write([self], to: json) }
    }

    /// One JSON object for several benchmarks, with the machine they ran on.
    static func write(_ reports: [BenchReport], to path: String) throws {
        var fields: [(String, JSONValue)] = [("machine", machine)]
        fields += reports.map { ($0.name, $0.rows) }
        try (JSONValue.object(fields).serialized() + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    static var machine: JSONValue {
        var u = utsname()
        uname(&u)
        let kernel = String(fixedCString: u.release)
        return .object([("cores", .int(ProcessInfo.processInfo.activeProcessorCount)), ("kernel", .string(kernel)),
                        ("zxing", .string(ZXingDecoder.libraryVersion)), ("decoderProcesses", .int(DecoderWorker.defaultLanes))])
    }
}

/// `scand bench` (or `scand bench all`): every benchmark in one run, side by side — live frames at a
/// camera's pace, scand vs zxing's defaults vs libzbar on the same frames, and the real photos when present.
struct AllBenches: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all",
        abstract: "Run every benchmark (frames, compare, photos when present) and print their tables."
    )

    @Option(name: .long, help: "Seconds per frame size and scene in the frames benchmark.")
    var seconds: Int = 5

    @Option(name: .long, help: "Frame sizes of the frames benchmark, comma-separated (default: all three).")
    var sizes: String?

    @Option(name: .long, help: "Scenes of the frames benchmark, comma-separated (default: all four).")
    var scenes: String?

    @Option(name: .long, help: "Frames of the compare benchmark.")
    var compareFrames: Int = 180

    @Option(name: .long, help: "Folder of photo folders (default: ../shared/testdata/zxing-cpp-1.4.0-samples; skipped when absent).")
    var root: String?

    @Option(name: .long, help: "Also write every table as one JSON object to this file.")
    var json: String?

    func run() throws {
        var reports: [BenchReport] = []
        var frames = try FramesBench.parse([])
        frames.seconds = seconds
        if let sizes { frames.sizes = sizes }
        if let scenes { frames.scenes = scenes }
        var compare = try CompareBench.parse([])
        compare.frames = compareFrames
        var photos = try PhotosBench.parse([])
        photos.root = root
        let benches: [(name: String, report: () throws -> BenchReport?)] = [
            ("frames", { try frames.report() }), ("compare", { try compare.report() }), ("photos", { try photos.report() }),
        ]
        for bench in benches {
            guard let r = try bench.report() else {
                print("\n## \(bench.name)\n\nskipped: no photos under \(root ?? PhotoBenchmark.defaultRoot())")
                continue
            }
            print("\n## \(r.name)\n\n" + r.table)
            reports.append(r)
        }
        if let json { try BenchReport.write(reports, to: json) }
    }
}

/// `scand bench photos`: the per-folder accuracy table of the README.
struct PhotosBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Correct payloads and misreads per folder of real photos: scand, zxing's default hints, zbarimg."
    )

    @Option(name: .long, help: "Folder of photo folders (default: ../shared/testdata/zxing-cpp-1.4.0-samples).")
    var root: String?

    @Option(name: .long, help: "Also write the table as JSON to this file.")
    var json: String?

    func run() throws {
        guard let report = try report() else { throw ValidationError("no photo folders under '\(root ?? PhotoBenchmark.defaultRoot())'") }
        try report.emit(json: json)
    }

    /// nil when there are no photos.
    func report() throws -> BenchReport? {
        let root = root ?? PhotoBenchmark.defaultRoot()
        let folders = PhotoBenchmark.load(root: root)
        guard !folders.isEmpty else { return nil }
        let readers = PhotoBenchmark.Reader.allCases.filter { $0 != .zbarimg || ZBarImg.available }
        let bench = PhotoBenchmark()
        var rows: [[PhotoBenchmark.Score]] = []
        for (folder, samples) in folders {
            rows.append(readers.map { bench.score($0, folder: folder, samples: samples) })
        }
        let value = JSONValue.array(rows.flatMap { row in
            zip(readers, row).map { reader, s in
                JSONValue.object([("folder", .string(s.folder)), ("reader", .string(reader.rawValue)), ("images", .int(s.images)),
                                  ("correct", .int(s.correct)), ("misreads", .int(s.misreads)), ("failures", .int(s.failures)),
                                  ("seconds", JSONValue.number(s.seconds, places: 2)),
                                  ("cpuSeconds", JSONValue.number(s.cpuSeconds, places: 2))])
            }
        })
        return BenchReport(name: "photos", table: Self.table(readers: readers, rows: rows), rows: value)
    }

    /// A Markdown table: per reader "correct (misreads, failures)".
    static func table(readers: [PhotoBenchmark.Reader], rows: [[PhotoBenchmark.Score]]) -> String {
        var lines = ["| folder | images | " + readers.map { "\($0.rawValue): found / misreads / crashed" }.joined(separator: " | ") + " |"]
        lines.append("|---|---|" + readers.map { _ in "---|" }.joined())
        var totals = readers.map { _ in PhotoBenchmark.Score(folder: "total") }
        for row in rows {
            lines.append("| \(row[0].folder) | \(row[0].images) | " + row.map { "\($0.correct) / \($0.misreads) / \($0.failures)" }.joined(separator: " | ") + " |")
            for (i, s) in row.enumerated() {
                totals[i].images += s.images
                totals[i].correct += s.correct
                totals[i].misreads += s.misreads
                totals[i].failures += s.failures
                totals[i].seconds += s.seconds
                totals[i].cpuSeconds += s.cpuSeconds
            }
        }
        lines.append("| **total** | \(totals[0].images) | " + totals.map { "**\($0.correct)** / \($0.misreads) / \($0.failures)" }.joined(separator: " | ") + " |")
        lines.append("| seconds | | " + totals.map { String(format: "%.1f", $0.seconds) }.joined(separator: " | ") + " |")
        lines.append("| CPU seconds | | " + totals.map { String(format: "%.1f", $0.cpuSeconds) }.joined(separator: " | ") + " |")
        return lines.joined(separator: "\n")
    }
}
