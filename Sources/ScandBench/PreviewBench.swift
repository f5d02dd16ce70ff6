import ArgumentParser
import Foundation
import ScandCapture
import ScandCore
import ScandProtocol
import ScandDecoding
import ScandPipeline
import Synchronization

/// `scand bench preview`: what the setup page's live preview costs the daemon — the live pipeline on the
/// same frames twice, once alone and once with a client asking for a SNAPSHOT 5 times a second (as `scand
/// web`'s page does), each answer encoded as the socket line it would be. Target: at most 5% of a core at 720p.
struct PreviewBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "CPU the live preview's snapshots cost the daemon (with and without 5 a second)."
    )

    @Option(name: .long, help: "Frame sizes, comma-separated.")
    var sizes: String = "1280x720"

    @Option(name: .long, help: "Camera rate to replay at.")
    var fps: Int = 30

    @Option(name: .long, help: "Seconds per run.")
    var seconds: Int = 5

    @Option(name: .long, help: "Snapshots asked for per second.")
    var rate: Double = 5

    @Option(name: .long, help: "Scenes, comma-separated: one (a QR code, decoded every frame), empty (a static scene, frames skipped).")
    var scenes: String = "one,empty"

    @OptionGroup var output: BenchOutput

    struct Row {
        var scene: String
        var size: String
        var cpuWithout: Double
        var cpuWith: Double
        var asked: Int
        var answered: Int
        var meanBytes: Double
        var cost: Double { cpuWith - cpuWithout }
    }

    func report() async throws -> BenchReport? {
        guard rate > 0, rate <= 30, seconds >= 1 else { throw ValidationError("--rate must be in 0…30 and --seconds at least 1") }
        var rows: [Row] = []
        for scene in scenes.split(separator: ",").map(String.init) {
            guard ["one", "empty"].contains(scene) else { throw ValidationError("unknown scene '\(scene)' (one, empty)") }
            for size in sizes.split(separator: ",") {
                guard let (w, h) = ScandConfig.parseSize(String(size)), w >= 320, h >= 240 else {
                    throw ValidationError("--sizes must be WIDTHxHEIGHTs of at least 320x240, e.g. 1280x720; got '\(size)'")
                }
                let frame = scene == "one" ? try FramesBench.oneCode(width: w, height: h) : Frame.yuyv(LumaImage(width: w, height: h, fill: 180))
                let without = await run(frame, snapshots: false)
                let with = await run(frame, snapshots: true)
                rows.append(
                    Row(
                        scene: scene, size: String(size), cpuWithout: without.cpu, cpuWith: with.cpu, asked: with.asked,
                        answered: with.answered, meanBytes: Double(with.bytes) / Double(max(1, with.answered))))
            }
        }
        let value = JSONValue.array(
            rows.map { r in
                .object([
                    ("scene", .string(r.scene)), ("size", .string(r.size)), ("fps", .int(fps)),
                    ("snapshotsPerSecond", JSONValue.number(rate, places: 1)),
                    ("asked", .int(r.asked)), ("answered", .int(r.answered)), ("meanLineBytes", JSONValue.number(r.meanBytes, places: 0)),
                    ("cpuPercentWithout", JSONValue.number(r.cpuWithout, places: 1)), ("cpuPercentWith", JSONValue.number(r.cpuWith, places: 1)),
                    ("previewCpuPercentOfACore", JSONValue.number(r.cost, places: 1))
                ])
            })
        return BenchReport(name: "preview", table: table(rows), rows: value)
    }

    /// One run: CPU of this process and its decoder children over wall time (100 = one core busy), and the
    /// snapshots asked for, answered and their bytes.
    private func run(_ frame: Frame, snapshots: Bool) async -> (cpu: Double, asked: Int, answered: Int, bytes: Int) {
        let tally = SnapshotTally()
        let run = await PipelineRun {
            LivePipeline(
                source: SyntheticSource(frames: [frame], count: fps * seconds, framesPerSecond: fps), decoder: FrameDecoder(),
                output: OutputSink(event: { _ in }, log: { _ in }))
        } beside: { p in
            guard snapshots else { return nil }
            // The page's client: one request every 1/rate s, as a socket client's would come, until the run ends.
            let interval = Duration.milliseconds(Int64(1000 / rate))
            return Task {
                while !Task.isCancelled {
                    tally.asked.add(1, ordering: .relaxed)
                    p.snapshot(isWanted: { true }) { line in
                        // What the socket sends: JSON with the JPEG in base64.
                        tally.answered.add(1, ordering: .relaxed)
                        tally.bytes.add(line.utf8.count, ordering: .relaxed)
                    }
                    try? await Task.sleep(for: interval)
                }
            }
        }
        return (run.cpuPercent, tally.asked.load(ordering: .relaxed), tally.answered.load(ordering: .relaxed), tally.bytes.load(ordering: .relaxed))
    }

    private func table(_ rows: [Row]) -> String {
        var lines = [
            "| scene | frame size | camera fps | snapshots asked / answered | mean line bytes | CPU without, % of a core | CPU with | preview's cost, % of a core |",
            "|---|---|---|---|---|---|---|---|"
        ]
        for r in rows {
            lines.append(
                "| \(r.scene) | \(r.size) | \(fps) | \(r.asked) / \(r.answered) | "
                    + String(format: "%.0f | %.1f | %.1f | %.1f", r.meanBytes, r.cpuWithout, r.cpuWith, r.cost) + " |")
        }
        return lines.joined(separator: "\n")
    }
}

/// The snapshots of one run: asked by its task, answered from the decode loop's thread.
private final class SnapshotTally: Sendable {
    let asked = Atomic(0), answered = Atomic(0), bytes = Atomic(0)
}
