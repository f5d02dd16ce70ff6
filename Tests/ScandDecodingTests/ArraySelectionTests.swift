import Testing
@testable import ScandDecoding
import ScandTestSupport

/// The localizers' medians by selection are the sorted arrays' elements, whatever the values' order.
@Suite struct ArraySelectionTests {
    @Test func everyRankIsTheSortedArraysElement() {
        var random = SeededRandom(seed: 30)
        for count in [1, 2, 3, 7, 64, 1000] {
            // Few distinct values (a kiosk's background blocks alike) and many.
            for spread in [3, 1 << 20] {
                let values = (0..<count).map { _ in random.below(spread) }
                let sorted = values.sorted()
                for rank in Set([0, count / 2, count - 1, random.below(count)]) {
                    #expect(values.element(atSortedRank: rank) == sorted[rank], "rank \(rank) of \(count) values below \(spread)")
                }
            }
        }
    }

    @Test func ordersThatDefeatMedianOfThreeStillGiveTheMedian() {
        let count = 4096
        // Ascending, descending, all equal, and an organ pipe, which gives median-of-three its worst pivots.
        let orders: [[Float]] = [
            (0..<count).map(Float.init), (0..<count).reversed().map(Float.init), Array(repeating: 7, count: count),
            (0..<count).map { Float($0 < count / 2 ? $0 : count - $0) }
        ]
        for values in orders {
            #expect(values.element(atSortedRank: count / 2) == values.sorted()[count / 2])
        }
    }
}
