import Synchronization

extension Atomic<Int> {
    /// Adds one if the count is below `limit`; whether it did.
    func increment(below limit: Int) -> Bool {
        var n = load(ordering: .relaxed)
        while n < limit {
            let (exchanged, original) = compareExchange(expected: n, desired: n + 1, ordering: .relaxed)
            if exchanged { return true }
            n = original
        }
        return false
    }
}
