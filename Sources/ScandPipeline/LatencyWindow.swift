/// The capture-to-event latencies of the last frames with codes, for percentiles: bounded, as the daemon
/// runs for months. Kept sorted as they come (a binary search and a move of at most 8 KB a frame), so that the
/// decode loop, which publishes the percentiles after every frame with codes, never sorts the window.
struct LatencyWindow: Sendable {
    static let size = 1024
    /// In the order recorded: the oldest is `values[next]` once the window is full.
    private var values: [Double] = []
    private var next = 0
    private var sorted: [Double] = []

    /// Records `latency`, forgetting the oldest when the window is full. `latency` must not be NaN.
    mutating func record(_ latency: Double) {
        if values.count < Self.size {
            values.append(latency)
        } else {
            sorted.remove(at: Self.firstIndex(notBelow: values[next], in: sorted))
            values[next] = latency
        }
        sorted.insert(latency, at: Self.firstIndex(notBelow: latency, in: sorted))
        next = (next + 1) % Self.size
    }

    /// The `p` (0…1) percentile of the window; nil while it is empty.
    func percentiles(_ ps: [Double]) -> [Double?] {
        ps.map { p in sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
    }

    /// The first index of `sorted` whose value is not below `value` (`sorted.count` if none).
    private static func firstIndex(notBelow value: Double, in sorted: [Double]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
