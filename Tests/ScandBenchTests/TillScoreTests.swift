import Testing

@testable import ScandBench

/// The till bench's scoring on hand-made reports: exactly once, duplicates, misreads, missed and half-read.
@Suite struct TillScoreTests {
    static let truths = [
        TillScore.Truth(expected: "4006381333931", window: 0..<100),
        TillScore.Truth(expected: "03600029145212", mainNumber: "036000291452", addOn: "12", window: 100..<200),
        TillScore.Truth(expected: "(01)09501101530003(17)270101(10)L1234", window: 200..<300),
        TillScore.Truth(expected: "96385074", window: 300..<400),
        TillScore.Truth(expected: "https://shop.example/p/1", window: 400..<500)
    ]

    @Test func eachItemIsOnceDuplicatedHalfReadOrMissed() {
        let reports: [TillScore.Report] = [
            // 0: once, read again in the next item's window: a misread there, not a duplicate here.
            .init(frame: 12, text: "4006381333931"),
            // 1: without its add-on first, then with it: a duplicate; a UPC-A spelt as an EAN-13 is the same item.
            .init(frame: 110, text: "036000291452"), .init(frame: 120, text: "003600029145212"),
            .init(frame: 130, text: "4006381333931"),
            // 2: GS1 spelt with a GS and no parentheses: right, once.
            .init(frame: 210, text: "]C1010950110153000317270101\u{1D}10L1234"),
            // 3: a wrong number only: missed, and a misread.
            .init(frame: 310, text: "96385081"),
            // 4: twice: a duplicate. Before the first window: the first item's.
            .init(frame: 410, text: "https://shop.example/p/1"), .init(frame: 450, text: "https://shop.example/p/1")
        ]
        let s = TillScore(reader: "hand-made", reports: reports, truths: Self.truths)
        #expect(s.once == 2, "items 0 and 2")
        #expect(s.duplicates == 2, "item 1's read without its add-on, item 4's second")
        #expect(s.misreads == 2 && s.misreadDetails.map(\.item) == [1, 3])
        #expect(s.missed == 1 && s.halfRead == 0)
        #expect(s.firstRight == [12, 120, 210, nil, 410])
    }

    @Test func anEANReportedOnlyWithoutItsAddOnIsHalfReadAndMissed() {
        let s = TillScore(reader: "hand-made", reports: [.init(frame: 150, text: "036000291452")], truths: Self.truths)
        #expect(s.once == 0 && s.missed == 5 && s.halfRead == 1 && s.misreads == 0 && s.duplicates == 0)
        #expect(s.halfDetails.map(\.item) == [1] && s.halfDetails.map(\.reads) == [["036000291452 (half) at frame 150"]])
    }

    @Test func perFrameReadsAreReportedOnceWhileInView() {
        let frames: [(frame: Int, texts: [String])] = [
            (10, ["A"]), (11, ["A", "A"]), (12, []), (40, ["A", "B"]), (100, ["B"]), (101, ["A"])
        ]
        // A is seen at 10, 11, 40 (within 60 frames of 11) and then at 101, 61 frames after 40: a new sighting; B at 100 is 60 frames after 40: still in view.
        #expect(
            TillScore.deduplicated(frames) == [.init(frame: 10, text: "A"), .init(frame: 40, text: "B"), .init(frame: 101, text: "A")])
        let truth = Self.truths[1]
        #expect(TillScore.joiningAddOn(["12", "0036000291452", "X"], truth: truth) == ["03600029145212", "X"])
        #expect(TillScore.joiningAddOn(["12"], truth: truth) == ["12"])
    }

    @Test func medianAndP90AreNearestRanks() {
        #expect(TillScore.medianAndP90([]) == nil)
        #expect(TillScore.medianAndP90([5])! == (5, 5))
        #expect(TillScore.medianAndP90([0, 0, 0, 1, 2, 3, 4, 5, 9, 30])! == (2, 9))
    }
}
