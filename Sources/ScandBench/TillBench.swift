import ArgumentParser
import Foundation
import ScandCapture
import ScandCore
import ScandProtocol
import ScandDecoding
import ScandService
import Synchronization

/// `scand bench till`: items held up to a kiosk camera one at a time (hand jitter, blur, sensor noise), through
/// the live pipeline at each replay pace: SCANs per item, duplicates, misreads and frames from the first frame
/// a reader can decode to the first SCAN. At a till every item must be reported exactly once, with its text.
struct TillBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "till",
        abstract: "SCANs per held item, duplicates, misreads and frames to the first SCAN, at every replay pace."
    )

    @Option(name: .long, help: "Frames each item is held in view (30 fps).")
    var frames: Int = 90

    @Option(name: .long, help: "Replay paces, comma-separated: lockstep, recorded, fast.")
    var paces: String = "lockstep,recorded,fast"

    @Option(name: .long, help: "Also write the table as JSON to this file.")
    var json: String?

    /// One item of the till: what is held up and what must be reported.
    struct Item {
        var name: String
        var format: BarcodeFormat
        /// What zxing's writer draws ("+" before an add-on).
        var written: String
        var expected: String
        var moduleSize: Int
        var barHeight: Int?
    }

    static let items: [Item] = [
        Item(name: "EAN-8, 3 px/module", format: .ean8, written: "96385074", expected: "96385074", moduleSize: 3, barHeight: 55),
        Item(
            name: "ISBN + EAN-5, 3 px/module", format: .ean13, written: "9780306406157+51299", expected: "978030640615751299", moduleSize: 3,
            barHeight: 70),
        Item(name: "EAN-13, 2 px/module", format: .ean13, written: "4006381333931", expected: "4006381333931", moduleSize: 2, barHeight: 70),
        Item(name: "Code 128, 3 px/module", format: .code128, written: "TICKET-0042", expected: "TICKET-0042", moduleSize: 3, barHeight: 40),
        Item(name: "QR, 4 px/module", format: .qrCode, written: "https://example.org/t/42", expected: "https://example.org/t/42", moduleSize: 4)
    ]

    struct Row {
        var item: String
        var pace: String
        var scans = 0
        var misreads: [String] = []
        var firstDecodable: Int?
        var firstScan: Int?
        var decoded = 0
        var dropped = 0
        /// How long the replay took by the wall clock.
        var seconds = 0.0

        var duplicates: Int { max(0, scans - 1) }
        var framesToScan: Int? { firstScan.flatMap { s in firstDecodable.map { s - $0 } } }
    }

    func run() throws { try report().emit(json: json) }

    func report() throws -> BenchReport {
        guard frames >= 10 else { throw ValidationError("--frames must be at least 10") }
        let paceList = try paces.split(separator: ",").map { name -> (String, ReplaySource.Pace) in
            switch name {
            case "lockstep": ("lockstep", .lockstep)
            case "recorded": ("recorded", .recorded)
            case "fast": ("fast", .fast)
            default: throw ValidationError("--paces: unknown pace '\(name)' (lockstep, recorded, fast)")
            }
        }
        var rows: [Row] = []
        for (n, item) in Self.items.enumerated() {
            let scene = try HeldItemScene(item: item, heldFrames: frames, seed: UInt64(20 + n))
            let path = NSTemporaryDirectory() + "scand-till-\(getpid())-\(n).rec"
            try scene.record(to: path)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let firstDecodable = scene.firstDecodableFrame()
            for (paceName, pace) in paceList {
                var row = Self.replay(path, pace: pace, expected: item.expected)
                (row.item, row.pace, row.firstDecodable) = (item.name, paceName, firstDecodable)
                rows.append(row)
            }
        }
        var lines = [
            "| item | pace | SCANs | duplicates | misreads | first decodable frame | first SCAN frame | frames to SCAN | decoded / dropped | replay, s |",
            "|---|---|---|---|---|---|---|---|---|---|"
        ]
        for r in rows {
            lines.append(
                "| \(r.item) | \(r.pace) | \(r.scans) | \(r.duplicates) | \(r.misreads.count) | \(r.firstDecodable.map(String.init) ?? "-") | "
                    + "\(r.firstScan.map(String.init) ?? "-") | \(r.framesToScan.map(String.init) ?? "-") | \(r.decoded) / \(r.dropped) | "
                    + "\(String(format: "%.2f", r.seconds)) |")
        }
        for r in rows where !r.misreads.isEmpty {
            lines.append("")
            lines.append("\(r.item), \(r.pace), misread: " + r.misreads.map { "\"\($0.escapingControlCharacters())\"" }.joined(separator: ", "))
        }
        let value = JSONValue.array(
            rows.map { r in
                .object([
                    ("item", .string(r.item)), ("pace", .string(r.pace)), ("scans", .int(r.scans)), ("duplicates", .int(r.duplicates)),
                    ("misreads", .array(r.misreads.map { .string($0) })), ("firstDecodableFrame", r.firstDecodable.map { .int($0) } ?? .null),
                    ("firstScanFrame", r.firstScan.map { .int($0) } ?? .null), ("framesToScan", r.framesToScan.map { .int($0) } ?? .null),
                    ("decoded", .int(r.decoded)), ("dropped", .int(r.dropped)),
                    ("seconds", .double(r.seconds))
                ])
            })
        return BenchReport(name: "till", table: lines.joined(separator: "\n"), rows: value)
    }

    /// The item's recording through the live pipeline with the default settings, as `scand run --source
    /// replay:FILE --replay-pace PACE` runs it.
    static func replay(_ path: String, pace: ReplaySource.Pace, expected: String) -> Row {
        let scans = ScanLog()
        let pipeline = PipelineBuilder(source: .replay(path: path, pace: pace)).pipeline(
            for: ScandConfig(), output: OutputSink(event: { scans.add($0) }, log: { _ in }))
        let started = ContinuousClock.now
        pipeline.start()
        pipeline.wait()
        var row = Row(item: "", pace: "")
        row.seconds = (ContinuousClock.now - started).inSeconds
        for code in scans.all {
            if code.detection.text == expected {
                row.scans += 1
                if row.firstScan == nil { row.firstScan = code.frame.map { Int($0) } }
            } else {
                row.misreads.append(code.detection.text)
            }
        }
        let c = pipeline.counters
        (row.decoded, row.dropped) = (c.decoded, c.dropped)
        return row
    }
}

/// The SCANs of one replay, written from the decode loop's thread.
final class ScanLog: Sendable {
    private let scans = Mutex<[TrackedCode]>([])

    func add(_ event: Event) {
        if case .scan(let code) = event { scans.withLock { $0.append(code) } }
    }

    var all: [TrackedCode] { scans.withLock { $0 } }
}
