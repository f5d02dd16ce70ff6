import ArgumentParser
import Foundation
import ScandCore
import ScandProtocol

/// `scand bench photos`: the per-folder accuracy table of the README.
struct PhotosBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Correct payloads and misreads per folder of real photos: scand, zxing's default hints, zbarimg, in one run."
    )

    @Option(
        name: .long,
        help: "Folder of photo folders, or of photos with a gt.csv (default: ../shared/testdata/zxing-cpp-1.4.0-samples and quagga2-dev).")
    var root: String?

    @OptionGroup var output: BenchOutput

    /// nil when there are no photos.
    func report() async throws -> BenchReport? {
        let readers = PhotoBenchmark.Reader.allCases.filter { $0 != .zbarimg || ZBarImg.available }
        let bench = PhotoBenchmark()
        var tables: [String] = []
        var values: [JSONValue] = []
        for root in root.map({ [$0] }) ?? PhotoBenchmark.defaultRoots() {
            let folders = PhotoBenchmark.load(root: root)
            guard !folders.isEmpty else { continue }
            let set = (root as NSString).lastPathComponent
            var rows: [[PhotoBenchmark.Score]] = []
            for (folder, samples) in folders {
                var row: [PhotoBenchmark.Score] = []
                for reader in readers { row.append(await bench.score(reader, folder: folder, samples: samples)) }
                rows.append(row)
            }
            tables.append("### \(set)\n\n" + Self.table(readers: readers, rows: rows) + Self.missed(readers: readers, rows: rows))
            values += rows.flatMap { row in
                zip(readers, row).map { reader, s in
                    JSONValue.object([
                        ("set", .string(set)), ("folder", .string(s.folder)), ("reader", .string(reader.rawValue)), ("images", .int(s.images)),
                        ("correct", .int(s.correct)), ("misreads", .int(s.misreads)), ("wrongMainNumbers", .int(s.wrongMainNumbers)),
                        ("negativeReads", .int(s.negativeReads)), ("failures", .int(s.failures)),
                        ("seconds", JSONValue.number(s.seconds, places: 2)),
                        ("cpuSeconds", JSONValue.number(s.cpuSeconds, places: 2)),
                        ("found", .array(s.found.sorted().map(JSONValue.string)))
                    ])
                }
            }
        }
        guard !tables.isEmpty else { return nil }
        return BenchReport(name: "photos", table: tables.joined(separator: "\n\n"), rows: .array(values))
    }

    /// Below the table, for scand's readers: each photo another reader read and it did not, with who read it
    /// (where reach is lost, photo by photo).
    static func missed(readers: [PhotoBenchmark.Reader], rows: [[PhotoBenchmark.Score]]) -> String {
        var lines: [String] = []
        for (i, reader) in readers.enumerated() where reader == .scand || reader == .scandHeld {
            var missed: [String] = []
            for row in rows {
                let readByOthers = row.indices.filter { $0 != i }.reduce(into: [String: [String]]()) { out, j in
                    for photo in row[j].found { out[photo, default: []].append(readers[j].rawValue) }
                }
                for (photo, by) in readByOthers.sorted(by: { $0.key < $1.key }) where !row[i].found.contains(photo) {
                    missed.append("\(row[i].folder)/\(photo) (\(by.joined(separator: ", ")))")
                }
            }
            if !missed.isEmpty { lines.append("\(reader.rawValue) missed what another read: " + missed.joined(separator: "; ")) }
        }
        return lines.isEmpty ? "" : "\n\n" + lines.joined(separator: "\n\n")
    }

    /// A Markdown table: per reader "found / misreads / wrong main numbers / reads on photos without a code /
    /// crashed".
    static func table(readers: [PhotoBenchmark.Reader], rows: [[PhotoBenchmark.Score]]) -> String {
        var lines = [
            "| folder | images | " + readers.map { "\($0.rawValue): found / misreads / wrong main / on negatives / crashed" }.joined(separator: " | ")
                + " |"
        ]
        lines.append("|---|---|" + readers.map { _ in "---|" }.joined())
        func cell(_ s: PhotoBenchmark.Score, bold: Bool = false) -> String {
            (bold ? "**\(s.correct)**" : "\(s.correct)") + " / \(s.misreads) / \(s.wrongMainNumbers) / \(s.negativeReads) / \(s.failures)"
        }
        var totals = readers.map { _ in PhotoBenchmark.Score(folder: "total") }
        for row in rows {
            lines.append("| \(row[0].folder) | \(row[0].images) | " + row.map { cell($0) }.joined(separator: " | ") + " |")
            for (i, s) in row.enumerated() {
                totals[i].images += s.images
                totals[i].correct += s.correct
                totals[i].misreads += s.misreads
                totals[i].wrongMainNumbers += s.wrongMainNumbers
                totals[i].negativeReads += s.negativeReads
                totals[i].failures += s.failures
                totals[i].seconds += s.seconds
                totals[i].cpuSeconds += s.cpuSeconds
            }
        }
        if rows.count > 1 {
            lines.append("| **total** | \(totals[0].images) | " + totals.map { cell($0, bold: true) }.joined(separator: " | ") + " |")
        }
        lines.append("| seconds | | " + totals.map { String(format: "%.1f", $0.seconds) }.joined(separator: " | ") + " |")
        lines.append("| CPU seconds | | " + totals.map { String(format: "%.1f", $0.cpuSeconds) }.joined(separator: " | ") + " |")
        return lines.joined(separator: "\n")
    }
}
