import Foundation
import Testing
import ScandTestSupport

/// docs/performance.md's tables are written from `scand bench --json`: scripts/bench-tables puts the table a
/// run printed between its markers in the page, and leaves the benchmarks the run did not include alone.
@Suite struct BenchTablesTests {
    static let root = #filePath.replacingOccurrences(of: "Tests/ScandBenchTests/BenchTablesTests.swift", with: "")

    @Test func aRunsTablesReplaceThePagesAndNothingElse() throws {
        let bench = URL(fileURLWithPath: ScandBinary.path).deletingLastPathComponent().appendingPathComponent("scand-bench").path
        let dir = ScandBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ScandBinary.runTool(bench, ["journal", "--events", "300", "--directory", dir + "/journal", "--json", dir + "/bench.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: Self.root + "docs/performance.md", encoding: .utf8)
        try page.write(toFile: dir + "/page.md", atomically: true, encoding: .utf8)
        let written = try ScandBinary.runTool(Self.root + "scripts/bench-tables", [dir + "/bench.json", dir + "/page.md"])
        #expect(written.status == 0 && written.stdout.contains("wrote journal, machine"), "\(written.stdout)\(written.stderr)")
        let after = try String(contentsOfFile: dir + "/page.md", encoding: .utf8)
        func block(_ name: String, _ text: String) -> String? {
            text.components(separatedBy: "<!-- scand bench: \(name) ").dropFirst().first?.components(separatedBy: "<!-- end scand bench: \(name) -->")
                .first
        }
        let table = try #require(block("journal", after))
        #expect(table.contains("| 300 |") && r.stdout.contains(table.split(separator: "\n").dropFirst().joined(separator: "\n")), "\(table)")
        #expect(block("journal", page) != table)
        for name in ["frames", "preview", "compare", "till", "mjpeg", "photos"] {
            #expect(block(name, after) != nil && block(name, after) == block(name, page), "\(name) changed")
        }
        let refused = try ScandBinary.runTool(Self.root + "scripts/bench-tables", [dir + "/page.md", dir + "/page.md"])
        #expect(refused.status != 0 && !refused.stderr.isEmpty)
    }
}
