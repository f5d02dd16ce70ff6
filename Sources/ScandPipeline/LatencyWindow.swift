/// The capture-to-event latencies of the last frames with codes, for percentiles: bounded, as the daemon
/// runs for months.
struct LatencyWindow: Sendable {
    static let size = 1024
    private var values: [Double] = []
    private var next = 0

    mutating func record(_ latency: Double) {
        if values.count < Self.size { values.append(latency) } else { values[next] = latency }
        next = (next + 1) % Self.size
    }

    /// The `p` (0…1) percentile of the window; nil while it is empty.
    func percentiles(_ ps: [Double]) -> [Double?] {
        let sorted = values.sorted()
        return ps.map { p in sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
    }
}
