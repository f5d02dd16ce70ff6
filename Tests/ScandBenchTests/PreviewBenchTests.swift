import Foundation
import Testing
import ScandTestSupport

/// The preview bench measures what it says: the snapshots it asks for are answered with a JPEG line (all
/// but one asked as the replay ended, which no frame follows). Run as `scand bench preview` runs it.
@Suite struct PreviewBenchTests {
    @Test func theSnapshotsAskedForAreAnsweredAndReported() throws {
        let bench = URL(fileURLWithPath: ScandBinary.path).deletingLastPathComponent().appendingPathComponent("scand-bench").path
        let json = ScandBinary.temporaryDirectory() + "/preview.json"
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: json).deletingLastPathComponent().path) }
        let r = try ScandBinary.runTool(bench, ["preview", "--sizes", "640x480", "--seconds", "1", "--scenes", "one", "--json", json])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        let rows = object?["preview"] as? [[String: Any]] ?? []
        let row = try #require(rows.first, "\(object ?? [:])")
        let asked = (row["asked"] as? NSNumber)?.intValue ?? 0, answered = (row["answered"] as? NSNumber)?.intValue ?? -1
        #expect(answered >= 1 && answered >= asked - 1 && answered <= asked, "\(row)")
        #expect(((row["meanLineBytes"] as? NSNumber)?.doubleValue ?? 0) > 1000, "a JPEG in base64: \(row)")
        #expect(r.stdout.contains("| one | 640x480 | 30 | \(asked) / \(answered) |"), "\(r.stdout)")
    }
}
