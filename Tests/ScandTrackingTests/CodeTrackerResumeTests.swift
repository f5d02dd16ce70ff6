import Testing
@testable import ScandCore
@testable import ScandTracking

/// A code not yet scanned that goes unread for longer than `lostAfter` and is read again where it was, within
/// `forgetAfter`, is the same showing: its looks of the last `forgetAfter` add up (`CodeTracker.isResumable`).
@Suite struct CodeTrackerResumeTests {
    /// An ITF-14 read on a few lines, its bars from `x` for 270 px.
    func itf(x: Double = 610, y: Double = 400) -> Detection {
        let text = "16835209050249"
        return Detection(
            format: .itf, text: text, bytes: Array(text.utf8),
            corners: Quadrilateral([Point(x, y), Point(x + 270, y), Point(x + 270, y + 6), Point(x, y + 6)]), lineCount: 3)
    }

    /// The frames at 30 fps (every 33 ms from 0) from `start` to `end` (exclusive), reading `reads[t]` at the
    /// frames listed and nothing at the others; every event.
    func frames(_ t: inout CodeTracker, from start: Int, to end: Int, reads: [Int: Detection]) -> [String] {
        stride(from: (start + 32) / 33 * 33, to: end, by: 33).flatMap { now in summary(t.observe(reads[now].map { [$0] } ?? [], at: ms(now))) }
    }

    @Test func aHeldCodeReadInFramesFarApartAddsItsLooks() {
        // An ITF-14 under glare, defocused, read in a frame now and then (the till session's seed 30, #95): two
        // looks, 18 frames unread (lost), then a third where it was. ITF needs three.
        var t = CodeTracker()
        let events = frames(&t, from: 0, to: 1000, reads: [0: itf(), 66: itf(), 660: itf(x: 618, y: 392)])
        #expect(events == ["SCAN 1 16835209050249"])
        // One SCAN: it is not scanned again while read on.
        #expect(frames(&t, from: 1000, to: 1300, reads: [1023: itf(), 1056: itf()]).isEmpty)
    }

    @Test func looksOlderThanTheForgetTimeNoLongerCount() {
        var t = CodeTracker()
        // Two looks, then unread for 2 s: those looks have lapsed when it is read again.
        #expect(frames(&t, from: 0, to: 2112, reads: [0: itf(), 33: itf(), 2079: itf()]).isEmpty)
        // Two more looks make three within the forget time.
        #expect(frames(&t, from: 2112, to: 2200, reads: [2112: itf(), 2145: itf()]) == ["SCAN 1 16835209050249"])
    }

    @Test func aCodeReadAgainElsewhereStartsAfresh() {
        // Read again far from where it was (another item of the same number brought in): its own looks only.
        var t = CodeTracker()
        #expect(frames(&t, from: 0, to: 700, reads: [0: itf(), 33: itf(), 660: itf(x: 10, y: 600)]).isEmpty)
        #expect(frames(&t, from: 700, to: 800, reads: [726: itf(x: 10, y: 600)]).isEmpty)
        #expect(frames(&t, from: 800, to: 900, reads: [825: itf(x: 10, y: 600)]) == ["SCAN 2 16835209050249"])
    }

    @Test func aResumedMisreadStillYieldsToTheNumberReadOnItsBars() {
        // An EAN-8 read right in most frames and wrong in a few, far apart: the wrong one resumes, and still never
        // outweighs the right one.
        func ean8(_ text: String) -> Detection {
            var d = Detection(
                format: .ean8, text: text, bytes: Array(text.utf8),
                corners: Quadrilateral([Point(540, 400), Point(740, 400), Point(740, 406), Point(540, 406)]), lineCount: 3)
            d.barsAgree = true
            return d
        }
        var t = CodeTracker()
        var reads: [Int: Detection] = [0: ean8("96385081"), 594: ean8("96385081")]
        for now in stride(from: 33, to: 1200, by: 33) where now != 594 && (now < 99 || now > 561) { reads[now] = ean8("96385074") }
        let events = frames(&t, from: 0, to: 1200, reads: reads)
        #expect(!events.contains { $0.hasSuffix("96385081") }, "\(events)")
    }
}
