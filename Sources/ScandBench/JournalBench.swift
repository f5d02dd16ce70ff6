import ArgumentParser
import Foundation
import ScandCore
import ScandProtocol
import ScandJournal
import ScandEventLog

/// `scand bench journal`: what the event journal costs the daemon on this machine — an append per
/// published event (committed before the event goes out), and how fast `since` replays a backlog (journal
/// pages read and passed through the replay hand-over, as the daemon does, before its socket writes).
struct JournalBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Measure the event journal: append cost per event and the replay rate of since."
    )

    @Option(name: .long, help: "Events appended (SCAN lines of about 600 bytes).")
    var events: Int = 20_000

    @Option(name: .long, help: "Directory for the journal file (default: a new one under $TMPDIR; use the disk the daemon's state directory is on).")
    var directory: String?

    @OptionGroup var output: BenchOutput

    func report() throws -> BenchReport? {
        guard events >= 100 else { throw ValidationError("--events must be at least 100") }
        let dir = directory ?? NSTemporaryDirectory() + "scand-bench-journal-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/journal.sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let journal = try EventJournal.open(path: path, limits: .init(maxEvents: events * 2, maxAge: 86_400))
        let boot = EventPosition.randomBootID()
        let clock = ContinuousClock()

        var micros: [Double] = []
        micros.reserveCapacity(events)
        var bytes = 0
        for seq in 1...events {
            let line = EventEncoder.line(Self.scan(seq), stamp: EventStamp(boot: boot, seq: seq))
            bytes += line.utf8.count
            let started = clock.now
            try journal.append(seq: seq, boot: boot, eventClass: Event.Class.scan.rawValue, line: line, at: Date().timeIntervalSince1970)
            micros.append((clock.now - started).microseconds)
        }
        micros.sort()
        let p50 = micros[micros.count / 2], p99 = micros[micros.count * 99 / 100]

        // A client that missed everything: since the first event, batch by batch until live.
        let started = clock.now
        var (handover, actions) = ReplayHandover.start(since: EventPosition(boot: boot, seq: 1), span: try journal.span()) { seq in
            try? journal.boot(at: seq)
        }
        var sent = 0
        while let action = actions.popLast() {
            switch action {
            case .read(let after): actions = handover.journaled(try journal.events(after: after, limit: 256)).reversed()
            case .send: sent += 1
            case .error, .goLive: break
            }
        }
        let seconds = (clock.now - started).microseconds / 1e6
        let rate = Double(sent) / seconds

        let lines = [
            "| journal | events | bytes per line | append p50 µs | append p99 µs | since replay, events/s |",
            "|---|---|---|---|---|---|",
            "| SQLite WAL, synchronous=NORMAL | \(events) | \(bytes / events) | " + String(format: "%.0f | %.0f | %.0f |", p50, p99, rate)
        ]
        let rows = JSONValue.object([
            ("events", .int(events)), ("bytesPerLine", .int(bytes / events)),
            ("appendP50Microseconds", .number(p50, places: 1)), ("appendP99Microseconds", .number(p99, places: 1)),
            ("replayedEvents", .int(sent)), ("replayEventsPerSecond", .number(rate, places: 0))
        ])
        return BenchReport(name: "journal", table: lines.joined(separator: "\n"), rows: rows)
    }

    /// A SCAN as the daemon publishes it: a Wi-Fi QR code with its corners and parsed value.
    static func scan(_ seq: Int) -> Event {
        let text = "WIFI:S:kiosk-\(seq);T:WPA;P:secret;;"
        let d = Detection(
            format: .qrCode, text: text, bytes: Array(text.utf8),
            corners: Quadrilateral([Point(342, 318), Point(426, 318), Point(426, 402), Point(342, 402)]),
            symbologyIdentifier: "]Q1", ecLevel: "L")
        return .scan(
            TrackedCode(
                id: seq, device: "/dev/video0", time: Date(), frame: UInt64(seq), detection: d, frameWidth: 1280, frameHeight: 720,
                latencyMilliseconds: 14.2))
    }
}

extension Duration {
    var microseconds: Double { Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12 }
}
