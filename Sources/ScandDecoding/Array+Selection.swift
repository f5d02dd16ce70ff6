extension Array where Element: Comparable {
    /// The element at `rank` in `sorted()`, found without sorting: Hoare's selection, median-of-three
    /// pivots, in linear time on average. The localizers take a median over every block of every frame, and a
    /// sort of those was a twentieth of a till session's CPU. A run of bad pivots (a crafted frame) falls back to
    /// sorting what is left, so no frame costs more than a sort.
    func element(atSortedRank rank: Int) -> Element {
        precondition(indices.contains(rank), "rank \(rank) outside 0..<\(count)")
        var copy = self
        return copy.withUnsafeMutableBufferPointer { a in
            var lo = 0, hi = a.count - 1
            var rounds = 2 * (Int.bitWidth - a.count.leadingZeroBitCount) + 4
            while lo < hi {
                rounds -= 1
                if rounds < 0 {
                    var rest = UnsafeMutableBufferPointer(rebasing: a[lo...hi])
                    rest.sort()
                    break
                }
                let mid = lo + (hi - lo) / 2
                let pivot = Swift.max(Swift.min(a[lo], a[mid]), Swift.min(Swift.max(a[lo], a[mid]), a[hi]))
                var i = lo, j = hi
                while i <= j {
                    while a[i] < pivot { i += 1 }
                    while pivot < a[j] { j -= 1 }
                    if i <= j {
                        a.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                // lo…j hold what is not above the pivot, i…hi what is not below it, and between them its equals.
                if rank <= j {
                    hi = j
                } else if rank >= i {
                    lo = i
                } else {
                    return a[rank]
                }
            }
            return a[rank]
        }
    }
}
