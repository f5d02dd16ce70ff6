import ArgumentParser
import Foundation
import ScandCore

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
        let value = JSONValue.array(
            rows.flatMap { row in
                zip(readers, row).map { reader, s in
                    JSONValue.object([
                        ("folder", .string(s.folder)), ("reader", .string(reader.rawValue)), ("images", .int(s.images)),
                        ("correct", .int(s.correct)), ("misreads", .int(s.misreads)), ("failures", .int(s.failures)),
                        ("seconds", JSONValue.number(s.seconds, places: 2)),
                        ("cpuSeconds", JSONValue.number(s.cpuSeconds, places: 2))
                    ])
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
            lines.append(
                "| \(row[0].folder) | \(row[0].images) | " + row.map { "\($0.correct) / \($0.misreads) / \($0.failures)" }.joined(separator: " | ")
                    + " |")
            for (i, s) in row.enumerated() {
                totals[i].images += s.images
                totals[i].correct += s.correct
                totals[i].misreads += s.misreads
                totals[i].failures += s.failures
                totals[i].seconds += s.seconds
                totals[i].cpuSeconds += s.cpuSeconds
            }
        }
        lines.append(
            "| **total** | \(totals[0].images) | " + totals.map { "**\($0.correct)** / \($0.misreads) / \($0.failures)" }.joined(separator: " | ")
                + " |")
        lines.append("| seconds | | " + totals.map { String(format: "%.1f", $0.seconds) }.joined(separator: " | ") + " |")
        lines.append("| CPU seconds | | " + totals.map { String(format: "%.1f", $0.cpuSeconds) }.joined(separator: " | ") + " |")
        return lines.joined(separator: "\n")
    }
}
