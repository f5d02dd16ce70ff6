import ArgumentParser
import Foundation
import ScandBenchScenes
import ScandImageIO
import ScandProtocol

/// `scand bench packaging`: the photos bench's four readers on generated photos of packaging
/// (`PackagingPhotos`): crumpled bars, quiet zones cut by the photo's edge, and both.
struct PackagingBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "packaging",
        abstract: "Correct payloads and misreads on generated packaging photos (crumpled bars, cut quiet zones): scand, zxing, zbarimg, live."
    )

    @Option(name: .long, help: "Photos of each kind.")
    var count = 40

    @Option(name: .long, help: "Seed of the photos (the same photos for the same seed).")
    var seed: UInt64 = 1

    @OptionGroup var output: BenchOutput

    func validate() throws {
        guard (1...1000).contains(count) else { throw ValidationError("--count must be 1…1000, not \(count)") }
    }

    func report() async throws -> BenchReport? {
        let root = NSTemporaryDirectory() + "scand-packaging-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for kind in PackagingPhotos.Kind.allCases {
            let folder = root + "/" + kind.rawValue
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var csv = "image,format,payload\n"
            for (i, photo) in try PackagingPhotos.make(kind, count: count, seed: seed).enumerated() {
                let name = String(format: "%03d.png", i)
                try PNGWriter.write(photo.image, to: folder + "/" + name)
                csv += "\(name),\(photo.format),\(photo.answer)\n"
            }
            try csv.write(toFile: folder + "/gt.csv", atomically: true, encoding: .utf8)
        }
        var photos = try PhotosBench.parse([])
        var tables: [String] = [], rows: [JSONValue] = []
        for kind in PackagingPhotos.Kind.allCases {
            photos.root = root + "/" + kind.rawValue
            guard let r = try await photos.report() else { continue }
            tables.append(r.table)
            if case .array(let a) = r.rows { rows += a }
        }
        let heading = "\(count) photos of each kind, seed \(seed) (`scand bench packaging --count \(count) --seed \(seed)`)."
        return BenchReport(name: "packaging", table: heading + "\n\n" + tables.joined(separator: "\n\n"), rows: .array(rows))
    }
}
