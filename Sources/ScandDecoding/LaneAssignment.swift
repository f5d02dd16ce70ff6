/// Shares a read's passes between decoder processes: longest first, each to the least loaded lane.
enum LaneAssignment {
    static func lanes(costs: [Double], count: Int) -> [Int] {
        guard count > 1 else { return costs.map { _ in 0 } }
        var load = [Double](repeating: 0, count: count), lane = [Int](repeating: 0, count: costs.count)
        for i in costs.indices.sorted(by: { costs[$0] > costs[$1] }) {
            let l = load.indices.min { load[$0] < load[$1] }!
            lane[i] = l
            load[l] += costs[i]
        }
        return lane
    }
}
