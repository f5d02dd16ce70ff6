import ArgumentParser
import Foundation
import ScandCore
import ScandProtocol
import ScandDecoding
import ScandImageIO

/// `scand bench locate`: how well the live frames' linear localizer (`LinearLocator`) finds codes and how
/// quiet it stays where there are none, per folder of real photos: candidates per photo, photos whose located
/// bands alone read the answer, reads on photos without a code, and the localizer's CPU per megapixel.
struct LocateBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "The linear localizer on real photos: candidates per photo, answers its bands read, reads where there is no code."
    )

    @Option(
        name: .long,
        help: "Folder of photo folders, or of photos with a gt.csv (default: ../shared/testdata/zxing-cpp-1.4.0-samples and quagga2-dev).")
    var root: String?

    @OptionGroup var output: BenchOutput

    @Flag(name: .long, help: "Print each read that is not the answer, with its photo.")
    var verbose = false

    static let timedRuns = 25

    struct Row {
        var set: String
        var folder: String
        var images = 0
        /// Photos with an answer (a code).
        var coded = 0
        var candidates = 0
        /// Photos with a code whose bands read the answer.
        var readByBands = 0
        /// Reads that are not the answer (on photos without a code: any read).
        var wrong = 0
        var megapixels = 0.0
        var locateSeconds = 0.0
    }

    func report() throws -> BenchReport? {
        let decoder = ZXingDecoder(worker: DecoderWorker(lanes: 1))
        var rows: [Row] = []
        for root in root.map({ [$0] }) ?? PhotoBenchmark.defaultRoots() {
            let set = (root as NSString).lastPathComponent
            for (folder, samples) in PhotoBenchmark.load(root: root) {
                var row = Row(set: set, folder: folder)
                for sample in samples {
                    guard let image = try? ImageFile.readLuma(sample.path) else { continue }
                    row.images += 1
                    let coded = sample.expectedText != nil || sample.expectedBytes != nil
                    if coded { row.coded += 1 }
                    let region = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
                    // Run often enough to outlast the CPU clock's tick: one run over a small photo is well under it.
                    let cpu = FramesBench.cpuSeconds()
                    var found: [LinearLocator.Candidate] = []
                    for _ in 0..<Self.timedRuns {
                        found = image.withView { LinearLocator().find(in: $0, region: region) }
                    }
                    row.locateSeconds += (FramesBench.cpuSeconds() - cpu) / Double(Self.timedRuns)
                    row.megapixels += Double(image.width * image.height) / 1e6
                    row.candidates += found.count
                    let passes = LinearLocator.passes(for: found, region: region, formats: .all, role: .locatedLinear, label: "located")
                    let reads = decoder.decode(image, passes: passes).detections.map(PhotoBenchmark.Read.init)
                    if coded, reads.contains(where: { $0.matches(sample) }) { row.readByBands += 1 }
                    let wrong = reads.filter { !$0.matches(sample) }
                    row.wrong += wrong.count
                    if verbose {
                        for r in wrong { print("\(sample.path): read \"\(r.text)\", the answer is \"\(sample.expectedText ?? "none")\"") }
                    }
                }
                if row.images > 0 { rows.append(row) }
            }
        }
        guard !rows.isEmpty else { return nil }
        var lines = [
            "| set | folder | photos | with a code | candidates per photo | answers the bands read | other reads | localizer CPU ms per megapixel |",
            "|---|---|---|---|---|---|---|---|"
        ]
        for r in rows {
            lines.append(
                "| \(r.set) | \(r.folder) | \(r.images) | \(r.coded) | \(String(format: "%.2f", Double(r.candidates) / Double(r.images))) | "
                    + "\(r.readByBands) | \(r.wrong) | \(String(format: "%.2f", r.locateSeconds * 1000 / max(r.megapixels, 1e-9))) |")
        }
        let value = JSONValue.array(
            rows.map { r in
                .object([
                    ("set", .string(r.set)), ("folder", .string(r.folder)), ("images", .int(r.images)), ("coded", .int(r.coded)),
                    ("candidates", .int(r.candidates)), ("readByBands", .int(r.readByBands)), ("wrong", .int(r.wrong)),
                    ("megapixels", JSONValue.number(r.megapixels, places: 2)), ("locateCpuSeconds", JSONValue.number(r.locateSeconds, places: 3))
                ])
            })
        return BenchReport(name: "locate", table: lines.joined(separator: "\n"), rows: value)
    }
}
