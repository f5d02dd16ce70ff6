import Foundation
import ScandBenchScenes
import ScandCore
import ScandProtocol

/// The till bench's table for people and its rows as JSON.
extension TillBench {
    static func table(_ session: TillSession, rows: [Row], identical: Bool, firstReadable: [Int?]) -> String {
        let items = session.items
        var lines = [
            "\(items.count) items, \(session.frameCount) frames of 1280x720 MJPEG at 30 fps (seed \(session.seed)): "
                + "\(items.filter(\.swiped).count) swiped, \(items.filter(\.shaken).count) shaken, \(items.filter(\.onCan).count) on cans, "
                + "\(items.filter(\.glare).count) under glare, \(items.filter(\.defocused).count) defocused; "
                + "\(firstReadable.compactMap { $0 }.count) read in some frame alone; a \(Self.build) build.",
            "",
            "| reader | items exactly once | duplicates | misreads | missed (half-read) | frames to first report, median / p90 | CPU, % of a core |",
            "|---|---|---|---|---|---|---|"
        ]
        for r in rows {
            let s = r.score
            let latency = TillScore.medianAndP90(r.framesToReport).map { "\($0.median) / \($0.p90)" } ?? "-"
            lines.append(
                "| \(s.reader) | \(s.once) | \(s.duplicates) | \(s.misreads) | \(s.missed) (\(s.halfRead)) | \(latency) | "
                    + (r.cpuPercent.map { String(format: "%.1f", $0) } ?? "-") + " |")
        }
        lines.append("")
        lines.append("The two lockstep replays' SCAN lines are " + (identical ? "identical but for times." : "**not** identical."))

        // Per kind: how many of each each reader reported exactly once.
        let kinds = (TillMix.deck + TillMix.hardDeck).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let shown = rows.filter { $0.score.reader != "scand, lockstep again" }
        lines += [
            "", "| kind | items | " + shown.map(\.score.reader).joined(separator: " | ") + " |", "|---|---|" + shown.map { _ in "---|" }.joined()
        ]
        for kind in kinds {
            let indices = session.appearances.indices.filter { items[session.appearances[$0].item].kind == kind }
            guard !indices.isEmpty else { continue }
            let cells = shown.map { r in String(indices.filter { r.score.firstRight[$0] != nil }.count) }
            lines.append("| \(kind) | \(indices.count) | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("(per kind: items reported right at least once)")

        // What scand missed or misread in its first lockstep replay, with what made the item hard.
        let s = rows[0].score
        let missed = session.appearances.indices.filter { s.firstRight[$0] == nil }
        if !missed.isEmpty {
            lines.append("")
            lines.append(
                "\(s.reader) missed: "
                    + missed.map { i in
                        let item = items[session.appearances[i].item]
                        return "#\(i) \(item.kind) (\(item.circumstances)" + (firstReadable[i] == nil ? ", no frame reads alone" : "") + ")"
                    }.joined(separator: "; "))
        }
        for r in rows where !r.score.misreadDetails.isEmpty {
            lines.append("")
            lines.append(
                "\(r.score.reader) misread: "
                    + r.score.misreadDetails.prefix(20).map { m in
                        let of =
                            m.item >= 0 ? "#\(m.item) \(items[session.appearances[m.item].item].expected.escapingControlCharacters())" : "no item"
                        return "\(of) as \"\(m.read.escapingControlCharacters())\""
                    }.joined(separator: "; ") + (r.score.misreadDetails.count > 20 ? "; …" : ""))
        }
        return lines.joined(separator: "\n")
    }

    #if DEBUG
        static let build = "debug"
    #else
        static let build = "release"
    #endif

    static func json(_ session: TillSession, rows: [Row], identical: Bool) -> JSONValue {
        .object([
            ("items", .int(session.items.count)), ("frames", .int(session.frameCount)), ("seed", .int(Int(truncatingIfNeeded: session.seed))),
            ("lockstepIdentical", .bool(identical)),
            (
                "readers",
                .array(
                    rows.map { r in
                        let s = r.score, latency = TillScore.medianAndP90(r.framesToReport)
                        return .object([
                            ("reader", .string(s.reader)), ("once", .int(s.once)), ("duplicates", .int(s.duplicates)), ("misreads", .int(s.misreads)),
                            ("missed", .int(s.missed)), ("halfRead", .int(s.halfRead)),
                            ("framesToReportMedian", latency.map { .int($0.median) } ?? .null),
                            ("framesToReportP90", latency.map { .int($0.p90) } ?? .null),
                            ("cpuPercentOfACore", r.cpuPercent.map { .number($0, places: 1) } ?? .null),
                            ("misreadTexts", .array(s.misreadDetails.map { .string($0.read) }))
                        ])
                    })
            )
        ])
    }
}
