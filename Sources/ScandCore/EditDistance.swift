/// How many edits apart two words are, for "did you mean" (a command, an option, a barcode format).
public enum EditDistance {
    /// Levenshtein distance, with a swap of neighbours as one edit (`scna`, `scan`).
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// The closest of `candidates` to `word`, within two edits and fewer than half its letters; the first
    /// of equally close ones.
    public static func nearest(_ word: String, in candidates: [String]) -> String? {
        let limit = min(2, max(1, word.count / 2))
        let scored = candidates.map { ($0, between(word.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }
}
