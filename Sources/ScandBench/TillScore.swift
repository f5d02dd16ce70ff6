import Foundation

/// One reader's reports over a till session, scored per item: reported exactly once with its text,
/// reported again (duplicates), reported with a wrong text (misreads), never reported right (missed).
struct TillScore {
    /// What an item must be reported as, and the frames whose reports are its: from its first frame in
    /// view to the next item's first.
    struct Truth {
        var expected: String
        var mainNumber: String?
        var addOn: String?
        var window: Range<Int>
    }

    /// A report of one reader: a SCAN, or a symbol a per-frame reader found anew.
    struct Report: Equatable {
        var frame: Int
        var text: String
        /// The symbology, where the reader gives it (scand's): listed with a duplicate.
        var format: String? = nil
    }

    enum Reading: Equatable {
        case right
        /// An EAN/UPC without its add-on, or the add-on alone: the item half-read.
        case partial
        case wrong
    }

    var reader: String
    var once = 0
    var duplicates = 0
    var misreads = 0
    var missed = 0
    /// Missed items that were half-read (the main number without its add-on).
    var halfRead = 0
    /// Per item: the frame of its first report with the right text.
    var firstRight: [Int?] = []
    var misreadDetails: [(item: Int, read: String)] = []
    /// Items reported more than once, with what each report read (right, or the main number alone).
    var duplicateDetails: [(item: Int, reads: [String])] = []
    /// Half-read items, with what each report read.
    var halfDetails: [(item: Int, reads: [String])] = []

    init(reader: String, reports: [Report], truths: [Truth]) {
        self.reader = reader
        var right = [Int](repeating: 0, count: truths.count), partial = right
        var texts = [[String]](repeating: [], count: truths.count)
        firstRight = [Int?](repeating: nil, count: truths.count)
        for r in reports {
            // Before the first item's window (the empty counter at the start) counts as the first item's.
            guard
                let i = truths.firstIndex(where: { $0.window.contains(r.frame) })
                    ?? (truths.first.map { r.frame < $0.window.lowerBound } == true ? 0 : nil)
            else {
                misreads += 1
                misreadDetails.append((-1, r.text))
                continue
            }
            switch Self.reading(r.text, of: truths[i]) {
            case .right:
                right[i] += 1
                texts[i].append("\(r.format.map { $0 + " " } ?? "")\(r.text) at frame \(r.frame)")
                if firstRight[i] == nil { firstRight[i] = r.frame }
            case .partial:
                partial[i] += 1
                texts[i].append("\(r.format.map { $0 + " " } ?? "")\(r.text) (half) at frame \(r.frame)")
            case .wrong:
                misreads += 1
                misreadDetails.append((i, r.text))
            }
        }
        for i in truths.indices {
            duplicates += max(0, right[i] + partial[i] - 1)
            if right[i] + partial[i] > 1 { duplicateDetails.append((i, texts[i])) }
            if right[i] == 1 && partial[i] == 0 { once += 1 }
            if right[i] == 0 {
                missed += 1
                if partial[i] > 0 {
                    halfRead += 1
                    halfDetails.append((i, texts[i]))
                }
            }
        }
    }

    /// Whether `text` is the item's: readers spell some payloads their own way — zbar a UPC-A as an EAN-13
    /// with a leading 0, GS1 data with or without parentheses round its AIs, a GS or a symbology identifier.
    static func reading(_ text: String, of truth: Truth) -> Reading {
        let t = canonical(text), e = canonical(truth.expected)
        if t == e || t == "0" + e { return .right }
        if let main = truth.mainNumber.map(canonical), t == main || t == "0" + main || t == truth.addOn { return .partial }
        return .wrong
    }

    static func canonical(_ text: String) -> String {
        var t = Substring(text)
        for prefix in ["]C1", "]d2", "]Q3", "]e0"] where t.hasPrefix(prefix) { t = t.dropFirst(prefix.count) }
        return String(t.filter { $0 != "(" && $0 != ")" && $0 != "[" && $0 != "]" && $0 != "\u{1D}" })
    }

    /// A per-frame reader's symbols as zbarcam reports them: a symbol once while it stays in view, that is
    /// until it has gone unseen for `hysteresis` frames (zbar's cache: 2 s, 60 frames at 30 fps).
    static func deduplicated(_ frames: [(frame: Int, texts: [String])], hysteresis: Int = 60) -> [Report] {
        var lastSeen: [String: Int] = [:]
        var out: [Report] = []
        for (f, texts) in frames {
            for t in Set(texts).sorted() {
                if lastSeen[t].map({ f - $0 > hysteresis }) ?? true { out.append(Report(frame: f, text: t)) }
                lastSeen[t] = f
            }
        }
        return out
    }

    /// A frame's symbols with an EAN/UPC and its add-on read as two (as zbar reports them) joined into one.
    static func joiningAddOn(_ texts: [String], truth: Truth?) -> [String] {
        guard let truth, let main = truth.mainNumber, let addOn = truth.addOn, texts.contains(addOn),
            let m = texts.firstIndex(where: { $0 == main || $0 == "0" + main })
        else { return texts }
        var out = texts
        out[m] = truth.expected
        out.removeAll { $0 == addOn }
        return out
    }

    /// The median and 90th percentile of `values` (nearest rank); nil when empty.
    static func medianAndP90(_ values: [Int]) -> (median: Int, p90: Int)? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        func rank(_ p: Double) -> Int { s[min(s.count - 1, max(0, Int((p * Double(s.count)).rounded(.up)) - 1))] }
        return (rank(0.5), rank(0.9))
    }
}
