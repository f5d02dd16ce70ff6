import Foundation
import Testing
@testable import ScandBench

/// The preview bench measures what it says: the snapshots it asks for are answered with a JPEG line (all
/// but one asked as the replay ended, which no frame follows).
@Suite struct PreviewBenchTests {
    @Test func everySnapshotAskedForIsAnsweredAndReported() throws {
        let bench = try PreviewBench.parse(["--sizes", "640x480", "--seconds", "1", "--scenes", "one"])
        let report = try bench.report()
        guard case .array(let rows) = report.rows, case .object(let fields)? = rows.first else {
            Issue.record("no row: \(report.table)")
            return
        }
        let row = Dictionary(fields, uniquingKeysWith: { a, _ in a })
        guard case .int(let asked)? = row["asked"], case .int(let answered)? = row["answered"] else {
            Issue.record("no counts: \(report.table)")
            return
        }
        #expect(answered >= 1 && answered >= asked - 1 && answered <= asked, "\(report.table)")
        #expect(report.table.contains("| one | 640x480 | 30 | \(asked) / \(answered) |"), "\(report.table)")
    }
}
