import ArgumentParser
import Foundation
import ScandBenchScenes
import ScandCapture
import ScandCore
import ScandImageIO
import ScandProtocol
import ScandTracking

/// `scand bench till --seeds A-B`: many generated sessions, each through scand's live pipeline once in lockstep
/// (the replay whose SCANs are deterministic), scored together. Misreads are rare events: one session of 100
/// items cannot show a rate of one in a thousand, so the table gives their count per 1,000 items with its exact
/// 95% upper bound (Clopper–Pearson), which for no misread in n items is about 3000/n.
struct TillSessions {
    var seeds: ClosedRange<UInt64>
    var items: Int
    var mix: TillMix.Kind
    /// Photos that look like codes, laid over the counter (empty: the plain counter).
    var clutter: [LumaImage]
    /// The daemon's settings for the replays.
    var config = ScandConfig()
    /// Lockstep (deterministic SCANs: the misread count) or the recorded pace (a camera's: the CPU a till costs,
    /// JPEG decoding included, with the frames a busy decoder drops).
    var pace: ReplaySource.Pace = .lockstep

    /// One session's outcome.
    struct Outcome {
        var seed: UInt64
        var session: TillSession
        var score: TillScore
        var cpuPercent: Double
    }

    /// "20" or "1-20".
    static func parse(_ text: String) throws -> ClosedRange<UInt64> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let a = UInt64(parts[0]), let b = UInt64(parts.last!), a <= b, b - a < 1000 else {
            throw ValidationError("--seeds takes a seed or a range of at most 1000 seeds (\"7\", \"1-20\"); got '\(text)'")
        }
        return a...b
    }

    /// The photos of `falsepositives-1` under the shared test data, as grey images.
    static func clutterPhotos(root: String) throws -> [LumaImage] {
        let dir = (root as NSString).appendingPathComponent("falsepositives-1")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
            throw ValidationError("--clutter needs the photos of '\(dir)'")
        }
        return try names.sorted().filter { ["png", "jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }.map { name in
            try ImageFile.readLuma((dir as NSString).appendingPathComponent(name))
        }
    }

    func run() async throws -> [Outcome] {
        var out: [Outcome] = []
        for seed in seeds {
            let session = TillSession(items: items, seed: seed, mix: mix, clutter: clutter)
            let truths = session.appearances.map { a in
                let item = session.items[a.item]
                return TillScore.Truth(expected: item.expected, mainNumber: item.mainNumber, addOn: item.addOn, window: a.start..<a.windowEnd)
            }
            let path = NSTemporaryDirectory() + "scand-till-\(getpid())-\(seed).rec"
            defer { unlink(path) }
            try session.record(to: path)
            let replay = try await TillBench.replay(path, pace: pace, config: config)
            let reports = replay.scans.map {
                TillScore.Report(frame: Int($0.frame ?? 0), text: $0.detection.text, format: "\($0.detection.format)")
            }
            let score = TillScore(reader: "scand, \(paceName)", reports: reports, truths: truths)
            out.append(Outcome(seed: seed, session: session, score: score, cpuPercent: replay.run.cpuPercent))
            FileHandle.standardError.write(
                Data(
                    ("seed \(seed): \(score.once) once, \(score.duplicates) duplicates, \(score.misreads) misreads, \(score.halfRead) halves, \(score.missed) missed, "
                        + String(format: "%.1f%% of a core\n", replay.run.cpuPercent) + Self.details(score, session)).utf8))
        }
        return out
    }

    /// The items half-read and misread in one session, a line each, for the one who looks at why.
    static func details(_ score: TillScore, _ session: TillSession) -> String {
        func item(_ i: Int) -> String {
            guard i >= 0 else { return "no item" }
            let shown = session.appearances[i], item = session.items[shown.item]
            return "#\(i) \(item.kind) \(item.expected.escapingControlCharacters()) (\(item.circumstances), frames \(shown.start)–\(shown.windowEnd))"
        }
        let halves = score.halfDetails.map { "  half: \(item($0.item)): \($0.reads.joined(separator: ", "))\n" }
        let misreads = score.misreadDetails.map { "  misread: \(item($0.item)) as \"\($0.read.escapingControlCharacters())\"\n" }
        let missed = score.firstRight.indices.filter { score.firstRight[$0] == nil }.map { "#\($0)@\(session.appearances[$0].start)" }
        return (halves + misreads).joined() + (missed.isEmpty ? "" : "  missed: \(missed.joined(separator: " "))\n")
    }

    var paceName: String { pace == .lockstep ? "lockstep" : "recorded pace" }

    /// The exact (Clopper–Pearson) 95% upper bound of a rate seen `k` times in `n`: the p at which seeing at
    /// most k has probability 2.5%, found by bisection on the binomial's lower tail.
    static func upperBound(_ k: Int, _ n: Int) -> Double {
        guard n > 0 else { return 1 }
        guard k < n else { return 1 }
        func tail(_ p: Double) -> Double {
            // P(X ≤ k) for X ~ Binomial(n, p), summed in logs.
            var sum = 0.0
            for i in 0...k {
                let logC = lgamma(Double(n + 1)) - lgamma(Double(i + 1)) - lgamma(Double(n - i + 1))
                sum += exp(logC + Double(i) * log(p) + Double(n - i) * log1p(-p))
            }
            return sum
        }
        var lo = Double(k) / Double(n), hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if tail(mid) > 0.025 { lo = mid } else { hi = mid }
        }
        return hi
    }

    func report(_ outcomes: [Outcome]) -> BenchReport {
        let total = outcomes.reduce(into: (items: 0, once: 0, misreads: 0, halves: 0, missed: 0, duplicates: 0, frames: 0)) { t, o in
            t.items += o.session.items.count
            t.once += o.score.once
            t.misreads += o.score.misreads
            t.halves += o.score.halfRead
            t.missed += o.score.missed
            t.duplicates += o.score.duplicates
            t.frames += o.session.frameCount
        }
        let rate = total.items > 0 ? 1000 * Double(total.misreads) / Double(total.items) : 0
        let bound = 1000 * Self.upperBound(total.misreads, total.items)
        let cpus = outcomes.map(\.cpuPercent)
        let cpu = cpus.reduce(0, +) / Double(max(1, outcomes.count))
        let cpuLine =
            pace == .lockstep
            ? String(format: "CPU in lockstep (as fast as the decoder goes; not the recorded pace): %.1f%% of a core, mean of the sessions.", cpu)
            : String(
                format: "CPU at the recorded pace (a camera's 30 fps, JPEG decoding included): %.1f%% of a core, mean of the sessions (%.1f–%.1f%%).",
                cpu, cpus.min() ?? 0, cpus.max() ?? 0)
        let replayed = pace == .lockstep ? "in lockstep" : "at the recorded pace"
        var lines = [
            "\(outcomes.count) sessions (seeds \(seeds.lowerBound)–\(seeds.upperBound)) of \(items) items, the \(mix.rawValue) mix"
                + (clutter.isEmpty ? "" : ", on a counter cluttered with \(clutter.count) photos that look like codes")
                + (config[section: TrackerSettings.self].redundancy == TrackerSettings().redundancy
                    ? "" : ", redundancy \(config[section: TrackerSettings.self].redundancy)")
                + ": \(total.items) items, \(total.frames) frames of 1280x720 MJPEG at 30 fps, each session replayed once \(replayed); a \(TillBench.build) build.",
            "",
            "| items | exactly once | duplicates | misreads | misreads per 1,000 items (95% upper bound) | missed (half-read) |",
            "|---|---|---|---|---|---|",
            "| \(total.items) | \(total.once) | \(total.duplicates) | \(total.misreads) | "
                + String(format: "%.2f (%.2f)", rate, bound) + " | \(total.missed) (\(total.halves)) |",
            "",
            cpuLine
        ]
        var misreads: [String] = []
        for o in outcomes {
            for m in o.score.misreadDetails {
                let of = m.item >= 0 ? o.session.items[o.session.appearances[m.item].item] : nil
                let what = of.map { "#\(m.item) \($0.kind) \($0.expected) (\($0.circumstances))" } ?? "no item"
                misreads.append("seed \(o.seed) \(what) as \"\(m.read.escapingControlCharacters())\"")
            }
        }
        if !misreads.isEmpty { lines += ["", "Misreads: " + misreads.joined(separator: "; ")] }
        let duplicates = outcomes.flatMap { o in
            o.score.duplicateDetails.map { d in
                let item = o.session.items[o.session.appearances[d.item].item]
                return "seed \(o.seed) #\(d.item) \(item.kind) \(item.expected) (\(item.circumstances)): " + d.reads.joined(separator: ", ")
            }
        }
        if !duplicates.isEmpty { lines += ["", "Duplicates: " + duplicates.joined(separator: "; ")] }
        // What was missed, by kind: where the evidence model's cost in reads falls.
        var missedKinds: [String: Int] = [:]
        var missedItems: [String] = []
        for o in outcomes {
            for i in o.session.appearances.indices where o.score.firstRight[i] == nil {
                let item = o.session.items[o.session.appearances[i].item]
                missedKinds[item.kind, default: 0] += 1
                missedItems.append("seed \(o.seed) #\(i) \(item.kind) \(item.expected) (\(item.circumstances))")
            }
        }
        if !missedKinds.isEmpty {
            lines += ["", "Missed by kind: " + missedKinds.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")]
            if outcomes.count == 1 { lines += ["", "Missed: " + missedItems.joined(separator: "; ")] }
        }
        let rows = JSONValue.object([
            ("seeds", .array(outcomes.map { .int(Int(truncatingIfNeeded: $0.seed)) })), ("mix", .string(mix.rawValue)),
            ("redundancy", .int(config[section: TrackerSettings.self].redundancy)),
            ("clutter", .int(clutter.count)), ("items", .int(total.items)), ("once", .int(total.once)),
            ("duplicates", .int(total.duplicates)), ("misreads", .int(total.misreads)),
            ("misreadsPer1000", .number(rate, places: 3)), ("misreadsPer1000UpperBound95", .number(bound, places: 3)),
            ("missed", .int(total.missed)), ("halfRead", .int(total.halves)), ("pace", .string(paceName)),
            (pace == .lockstep ? "lockstepCPUPercentOfACore" : "recordedPaceCPUPercentOfACore", .number(cpu, places: 1)),
            ("misreadTexts", .array(misreads.map { .string($0) }))
        ])
        // Each pace its own table in docs/performance.md.
        return BenchReport(name: pace == .lockstep ? "till-sessions" : "till-sessions-recorded", table: lines.joined(separator: "\n"), rows: rows)
    }
}
