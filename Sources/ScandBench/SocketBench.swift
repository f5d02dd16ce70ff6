import ArgumentParser
import Foundation
import ScandProtocol
import ScandSocketBench

/// `scand bench socket`: what the daemon's event fan-out costs, measured on a real `scand` executable from
/// the outside, so that an older build can be measured the same way (`--scand` once for each). Each run
/// starts the daemon on a socket of its own, connects WATCH clients that read as fast as they can (and,
/// with `+slow`, one that never reads), then feeds it a replay of many events (`FanOutRun`): every client
/// must get every event in order; the daemon's own CPU time per 1,000 events and its peak memory are reported.
struct SocketBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "socket",
        abstract: "Measure the socket's event fan-out of a scand executable: CPU per 1,000 events to 1-64 WATCH clients, peak memory."
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The scand executable to measure, or LABEL=PATH; repeat it to compare builds in one run (default: the scand beside scand-bench).",
            valueName: "PATH"))
    var scand: [String] = []

    @Option(name: .long, help: "Runs, comma-separated: the number of reading WATCH clients, +slow for one more that never reads.")
    var subscribers: String = "1,16,64,64+slow"

    @Option(name: .long, help: "Frames replayed a run (12 UPDATE events each, after the 12 SCANs).")
    var frames: Int = 1500

    @Option(name: .long, help: "Frames written to the daemon a second.")
    var fps: Int = 100

    @Option(
        name: .long,
        help: "The daemon's [socket] queue_limit in the runs (its default is 256; more keeps a reader on a busy machine from being dropped).")
    var queueLimit: Int = 2048

    @Option(name: .long, help: "Runs of each executable and client count, interleaved; the table gives the median CPU and the range.")
    var repeats: Int = 1

    @OptionGroup var output: BenchOutput

    /// One configuration: `subscribers` reading clients, and a slow one or not.
    struct Clients: Equatable {
        var subscribers: Int
        var slow: Bool
        var label: String { "\(subscribers)" + (slow ? " + 1 that never reads" : "") }
    }

    static func parseClients(_ text: String) throws -> [Clients] {
        try text.split(separator: ",").map { item in
            let parts = item.trimmingCharacters(in: .whitespaces).split(separator: "+", maxSplits: 1)
            guard let n = Int(parts.first ?? ""), (1...500).contains(n), parts.count == 1 || parts[1] == "slow" else {
                throw ValidationError("--subscribers takes counts of 1-500, each optionally +slow (\"1,16,64,64+slow\"); got '\(item)'")
            }
            return Clients(subscribers: n, slow: parts.count == 2)
        }
    }

    /// The executables as (label, path): LABEL=PATH, or a path labelled by itself.
    func executables() throws -> [(label: String, path: String)] {
        let given = scand.isEmpty ? [Self.besideBench()] : scand
        return try given.map { item in
            let (label, path) = item.firstIndex(of: "=").map { (String(item[..<$0]), String(item[item.index(after: $0)...])) } ?? (item, item)
            guard FileManager.default.isExecutableFile(atPath: path) else { throw ValidationError("--scand: no executable at '\(path)'") }
            return (label, path)
        }
    }

    /// The scand installed or built beside this scand-bench.
    static func besideBench() -> String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("scand").path
    }

    func validate() throws {
        _ = try Self.parseClients(subscribers)
        guard (1...1_000_000).contains(frames) else { throw ValidationError("--frames must be 1-1000000; got \(frames)") }
        guard (1...10_000).contains(fps) else { throw ValidationError("--fps must be 1-10000; got \(fps)") }
        guard (1...100_000).contains(queueLimit) else { throw ValidationError("--queue-limit must be 1-100000; got \(queueLimit)") }
        guard (1...100).contains(repeats) else { throw ValidationError("--repeats must be 1-100; got \(repeats)") }
    }

    func report() async throws -> BenchReport? {
        try validate()
        let binaries = try executables()
        let configurations = try Self.parseClients(subscribers)
        let dir = NSTemporaryDirectory() + "scand-bench-socket-scene-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // One drawing for every executable: the scand beside the bench draws it when there is one.
        let synthesizer = FileManager.default.isExecutableFile(atPath: Self.besideBench()) ? Self.besideBench() : binaries[0].path
        let scene = try FanOutScene.make(synthesizer: synthesizer, directory: dir)
        var results: [[[FanOutRun.Result]]] = Array(
            repeating: Array(repeating: [], count: configurations.count), count: binaries.count)
        for round in 1...repeats {
            for (c, clients) in configurations.enumerated() {
                for (b, binary) in binaries.enumerated() {
                    let run = FanOutRun(
                        scand: binary.path, scene: scene, subscribers: clients.subscribers, slowClient: clients.slow, frames: frames,
                        framesPerSecond: fps, queueLimit: queueLimit)
                    let r = try run.run()
                    FileHandle.standardError.write(Data((Self.progress(binary.label, clients, round, r) + "\n").utf8))
                    results[b][c].append(r)
                }
            }
        }
        let report = table(binaries.map(\.label), configurations, results)
        if results.joined().joined().contains(where: { !$0.allComplete || $0.slowDropped == false }) {
            FileHandle.standardError.write(Data("scand bench socket: a client missed events, or the daemon failed (see the table)\n".utf8))
        }
        return report
    }

    static func progress(_ label: String, _ clients: Clients, _ round: Int, _ r: FanOutRun.Result) -> String {
        "socket: \(label), \(clients.label) clients, run \(round): \(r.events) events, \(r.complete)/\(r.delivered.count) complete, "
            + String(format: "%.3f s CPU, %.1f s wall, peak %d kB, exit %d", r.cpuSeconds, r.wallSeconds, r.peakRSSKilobytes, r.exitStatus)
            + (r.droppedForNotReading > 0 ? ", \(r.droppedForNotReading) dropped for not reading" : "")
            + (r.slowDropped.map { $0 ? ", slow client dropped" : ", slow client NOT dropped" } ?? "")
    }

    func table(_ labels: [String], _ configurations: [Clients], _ results: [[[FanOutRun.Result]]]) -> BenchReport {
        var lines = [
            "\(frames) frames of \(FanOutScene.size) with \(FanOutScene.codes) QR codes, replayed in lockstep through a FIFO at \(fps) frames/s, "
                + "an UPDATE per code per frame (`--update-interval 0.001`); `queue_limit` \(queueLimit), no journal. CPU: the daemon's own threads (utime + stime, "
                + "not its decoder processes) from the first frame until every client had the last event (the daemon's exit at the "
                + "recording's end is not measured)\(repeats > 1 ? ", median of \(repeats) runs (least–most)" : "").",
            "",
            "| scand | WATCH clients | events | clients that got every event in order | daemon CPU ms per 1,000 events | µs per line sent | peak RSS MB | slow client |",
            "|---|---|---|---|---|---|---|---|"
        ]
        var rows: [JSONValue] = []
        for (c, clients) in configurations.enumerated() {
            for (b, label) in labels.enumerated() {
                let runs = results[b][c]
                let perThousand = runs.map { $0.events > 0 ? $0.cpuSeconds * 1e6 / Double($0.events) : 0 }.sorted()
                let perLine = runs.map { $0.events > 0 ? $0.cpuSeconds * 1e6 / Double($0.events * clients.subscribers) : 0 }.sorted()
                let rss = runs.map(\.peakRSSKilobytes).sorted()
                let complete = runs.map { "\($0.complete)/\($0.delivered.count)" + ($0.exitStatus == 0 ? "" : " (exit \($0.exitStatus))") }
                let slow = runs.compactMap(\.slowDropped)
                let slowText =
                    !clients.slow ? "–" : slow.allSatisfy { $0 } ? "dropped" : "not dropped in \(slow.filter { !$0 }.count) of \(slow.count)"
                lines.append(
                    "| \(label) | \(clients.label) | \(runs.map(\.events).max() ?? 0) | \(Set(complete).sorted().joined(separator: ", ")) | "
                        + "\(Self.spread(perThousand, "%.0f")) | \(Self.spread(perLine, "%.1f")) | "
                        + String(format: "%.1f", Double(rss[rss.count / 2]) / 1024) + " | \(slowText) |")
                rows.append(
                    .object([
                        ("scand", .string(label)), ("subscribers", .int(clients.subscribers)), ("slowClient", .bool(clients.slow)),
                        ("events", .array(runs.map { .int($0.events) })),
                        ("complete", .array(runs.map { .bool($0.allComplete) })),
                        ("cpuMillisecondsPer1000Events", .array(perThousand.map { .number($0, places: 1) })),
                        ("cpuMicrosecondsPerLine", .array(perLine.map { .number($0, places: 2) })),
                        ("peakRSSKilobytes", .array(rss.map { .int($0) })),
                        ("wallSeconds", .array(runs.map { .number($0.wallSeconds, places: 2) })),
                        ("slowDropped", .array(slow.map { .bool($0) }))
                    ]))
            }
        }
        return BenchReport(name: "socket", table: lines.joined(separator: "\n"), rows: .array(rows))
    }

    /// The median, and with more than one value the least and the most.
    static func spread(_ sorted: [Double], _ format: String) -> String {
        guard let least = sorted.first, let most = sorted.last else { return "–" }
        let median = String(format: format, sorted[sorted.count / 2])
        return sorted.count == 1 ? median : median + " (" + String(format: format, least) + "–" + String(format: format, most) + ")"
    }
}
