import Testing
@testable import ScandCore
@testable import ScandTracking

/// Issue 30, 2 and 3: a code readable in a frame or two is scanned when the frame's own independent reads
/// agree; an add-on printed beside a code is waited for while the code is in view.
@Suite struct CodeTrackerSwipeTests {
    /// A linear read on three scan lines between rows `rows`, its bars from `x` (by default 200 px, 300 for an
    /// EAN-13 or UPC-A: 3 px modules).
    func read(
        _ text: String, _ format: BarcodeFormat = .ean8, x: ClosedRange<Double>? = nil, rows: ClosedRange<Double>, lines: Int = 3,
        barsBeside: Bool = false
    ) -> Detection {
        let x = x ?? ([.ean13, .upcA].contains(format) ? 540...840 : 540...740)
        var d = Detection(
            format: format, text: text, bytes: Array(text.utf8),
            corners: Quadrilateral([
                Point(x.lowerBound, rows.lowerBound), Point(x.upperBound, rows.lowerBound), Point(x.upperBound, rows.upperBound),
                Point(x.lowerBound, rows.upperBound)
            ]), lineCount: lines, addOnBarsBeside: barsBeside)
        // As the live decoder reports them: their bars looked at again agree.
        if ScanLineEvidence.patternChecked.contains(format) { d.barsAgree = true }
        return d
    }

    @Test func readsOnLinesApartInOneFrameScanAnEAN8There() {
        // Two passes (two bands) read it on lines 60 px apart, three lines each: two opinions.
        var t = CodeTracker()
        let upper = read("96385074", rows: 400...406), lower = read("96385074", rows: 460...466)
        #expect(summary(t.observe([upper, lower], at: ms(0))) == ["SCAN 1 96385074"])
        // The same lines read by two passes are one opinion; so are neighbouring lines.
        var u = CodeTracker()
        #expect(u.observe([upper, read("96385074", rows: 402...408)], at: ms(0)).isEmpty)
        #expect(summary(u.observe([upper], at: ms(33))) == ["SCAN 1 96385074"], "the second frame confirms it")
        var v = CodeTracker()
        #expect(v.observe([upper, read("96385074", rows: 408...412)], at: ms(0)).isEmpty, "centres 7 px apart: one place")
    }

    @Test func theMergersCountOfIndependentReadsConfirms() {
        var t = CodeTracker()
        var d = read("96385074", rows: 400...406)
        d.agreeingReads = 2
        #expect(summary(t.observe([d], at: ms(0))) == ["SCAN 1 96385074"])
    }

    @Test func upcEAndFormatsWithoutACheckDigitStillCountFrames() {
        for (format, text) in [(BarcodeFormat.upcE, "01234565"), (.codabar, "A123456B"), (.itf, "12345670")] {
            var t = CodeTracker()
            let upper = read(text, format, rows: 400...406), lower = read(text, format, rows: 460...466)
            #expect(t.observe([upper, lower], at: ms(0)).isEmpty, "\(format)")
        }
        var u = CodeTracker()
        var merged = read("01234565", .upcE, rows: 400...406)
        merged.agreeingReads = 3
        #expect(u.observe([merged], at: ms(0)).isEmpty)
        #expect(summary(u.observe([merged], at: ms(33))) == ["SCAN 1 01234565"])
    }

    @Test func aSwipeReadOnceAFrameFarApartIsScannedInItsSecondFrame() {
        // 600 px a frame, three lengths of the code: too far for the place to follow, the same payload agrees.
        var t = CodeTracker()
        #expect(t.observe([read("96385074", x: 40...240, rows: 400...406)], at: ms(0)).isEmpty)
        #expect(summary(t.observe([read("96385074", x: 640...840, rows: 380...386)], at: ms(33))) == ["SCAN 1 96385074"])
        #expect(t.observe([read("96385074", x: 1040...1240, rows: 380...386)], at: ms(66)).isEmpty, "one SCAN")
        #expect(summary(t.tick(at: ms(66 + 500))) == ["LOST 1 96385074"])
    }

    @Test func aMisreadOnOneGroupOfLinesIsNeverScanned() {
        var t = CodeTracker()
        let upper = read("96385074", rows: 400...406), lower = read("96385074", rows: 460...466)
        var events = summary(t.observe([upper, lower], at: ms(0)))
        // One frame reads another valid EAN-8 on one group of lines of the same bars.
        events += summary(t.observe([upper, read("96385081", rows: 460...466)], at: ms(33)))
        for i in 2...10 { events += summary(t.observe([upper, lower], at: ms(i * 33))) }
        events += summary(t.tick(at: ms(2000)))
        #expect(events == ["SCAN 1 96385074", "LOST 1 96385074"])
    }

    @Test func aCodeWithAddOnBarsBesideWaitsForAFrameThatReadsThem() {
        // Not a book or periodical: without the bars it would be scanned at once, without its add-on.
        var t = CodeTracker()
        var events: [String] = []
        for i in 0..<6 { events += summary(t.observe([read("4006381333931", .ean13, rows: 400...430, lines: 12, barsBeside: true)], at: ms(i * 33))) }
        #expect(events.isEmpty)
        let priced = read("400638133393151299", .ean13, x: 540...1000, rows: 400...430, lines: 12)
        // Its add-on read in two frames: one frame is one look, for an add-on as for a number.
        #expect(t.observe([priced], at: ms(6 * 33)).isEmpty)
        #expect(summary(t.observe([priced], at: ms(7 * 33))) == ["SCAN 1 400638133393151299"])
        for i in 8..<20 {
            events += summary(t.observe([read("4006381333931", .ean13, rows: 400...430, lines: 12, barsBeside: true)], at: ms(i * 33)))
        }
        events += summary(t.tick(at: ms(2000)))
        #expect(events == ["LOST 1 400638133393151299"], "once, with its add-on")
    }

    /// Seed 43's #20 (an EAN-13+5 at 2 px, held): read with bars beside, its add-on read once, then a frame that
    /// read nothing ended the wait and the main number was scanned alone; the next frame read the add-on again.
    @Test func aFrameThatDoesNotReadTheCodeDoesNotEndItsWaitForTheAddOn() {
        let plain = read("4006381333931", .ean13, rows: 400...430, lines: 12, barsBeside: true)
        let priced = read("400638133393151299", .ean13, x: 540...1000, rows: 400...430, lines: 12)
        var t = CodeTracker()
        var events: [String] = []
        for (k, reads) in [[plain], [plain], [priced], [], [plain], [priced]].enumerated() {
            events += summary(t.observe(reads, at: ms(33 * k)))
        }
        events += summary(t.tick(at: ms(2000)))
        #expect(events == ["SCAN 1 400638133393151299", "LOST 1 400638133393151299"], "\(events)")
    }

    /// A code brought in end first, its add-on still beyond the frame's edge, waits as one with bars beside it;
    /// the edge is not an add-on shown, so a book's EAN held there without one is scanned when the wait ends.
    @Test func aCodeWhoseAddOnMayLieBeyondTheEdgeWaitsForIt() {
        var atEdge = read("4006381333931", .ean13, rows: 400...430, lines: 12)
        atEdge.addOnBeyondEdge = true
        let priced = read("400638133393151299", .ean13, x: 540...1000, rows: 400...430, lines: 12)
        var t = CodeTracker()
        #expect(t.observe([atEdge], at: ms(0)).isEmpty && t.observe([atEdge], at: ms(33)).isEmpty)
        #expect(t.observe([priced], at: ms(66)).isEmpty)
        #expect(summary(t.observe([priced], at: ms(99))) == ["SCAN 1 400638133393151299"])
        // Without the edge it is no book's prefix and shows no add-on: scanned at its second look.
        var u = CodeTracker()
        let plain = read("4006381333931", .ean13, rows: 400...430, lines: 12)
        #expect(u.observe([plain], at: ms(0)).isEmpty)
        #expect(summary(u.observe([plain], at: ms(33))) == ["SCAN 1 4006381333931"])
        // A book's EAN at the edge, no add-on ever: scanned when the wait ends, not held back as if one showed.
        var book = read("9780306406157", .ean13, rows: 400...430, lines: 12)
        book.addOnBeyondEdge = true
        var v = CodeTracker()
        var events: [String] = []
        for k in 0..<12 { events += summary(v.observe([book], at: ms(33 * k))) }
        #expect(events == ["SCAN 1 9780306406157"], "\(events)")
    }

    /// An add-on wait longer than `lostAfter` (a setting): a code taken away while it waits is scanned without its
    /// add-on as it is lost, not lost unscanned.
    @Test func aCodeThatLeavesWhileWaitingForItsAddOnIsScannedWithoutIt() {
        var settings = TrackerSettings()
        settings.addOnWait = .seconds(2)
        var t = CodeTracker(settings: settings)
        let book = read("9780306406157", .ean13, rows: 400...430, lines: 12)
        #expect(t.observe([book], at: ms(0)).isEmpty && t.observe([book], at: ms(33)).isEmpty)
        #expect(t.tick(at: ms(532)).isEmpty)
        #expect(summary(t.tick(at: ms(533))) == ["SCAN 1 9780306406157", "LOST 1 9780306406157"])
    }

    /// Seeds 43 and 45 of the retail till: an EAN-13+5 and a UPC-A+5 showed their add-on's bars, read it in a
    /// frame, the wait ended and the main number was scanned alone; their add-on was read again a frame or a few
    /// later. Until two looks agree on the add-on, the code is not scanned without it.
    @Test func aCodeThatShowsAnAddOnIsNeverScannedWithoutIt() {
        let plain = read("4006381333931", .ean13, rows: 400...430, lines: 12, barsBeside: true)
        let priced = read("400638133393151299", .ean13, x: 540...1000, rows: 400...430, lines: 12)
        let frames = [[plain], [priced]] + Array(repeating: [plain], count: 28)
        var t = CodeTracker()
        var events: [String] = []
        for (k, reads) in frames.enumerated() { events += summary(t.observe(reads, at: ms(k * 33))) }
        events += summary(t.tick(at: ms(3000)))
        #expect(events.isEmpty, "its add-on read once only: not scanned, rather than half-read")
        // A shop that wants the main number alone: scanned when the wait for the add-on ends.
        var settings = TrackerSettings()
        settings.addOnRequired = false
        var w = CodeTracker(settings: settings)
        events = []
        for (k, reads) in frames.prefix(9).enumerated() { events += summary(w.observe(reads, at: ms(k * 33))) }
        #expect(events.isEmpty)
        #expect(summary(w.observe([plain], at: ms(300))) == ["SCAN 1 4006381333931"])
    }

    /// Print beside a plain code passes for an add-on's bars (the retail till: a plain EAN-13 in 8 of its 39
    /// frames, a swiped EAN-8 in 6 of its 7): without a read of an add-on they only make the code wait, and a read
    /// of one weighs less than the frames that show its place empty.
    @Test func barsBesideWithoutAReadOrOutweighedAreNoAddOn() {
        let beside = read("4006381333931", .ean13, rows: 400...430, lines: 12, barsBeside: true)
        let empty = read("4006381333931", .ean13, rows: 400...430, lines: 12)
        let priced = read("400638133393151299", .ean13, x: 540...1000, rows: 400...430, lines: 12)
        var t = CodeTracker()
        var events: [String] = []
        for k in 0..<9 { events += summary(t.observe([beside], at: ms(33 * k))) }
        #expect(events.isEmpty)
        #expect(summary(t.observe([beside], at: ms(300))) == ["SCAN 1 4006381333931"])
        var u = CodeTracker()
        events = []
        for (k, r) in [priced, empty, empty].enumerated() { events += summary(u.observe([r], at: ms(33 * k))) }
        #expect(events.isEmpty, "one add-on read: the wait")
        #expect(summary(u.tick(at: ms(300))) == ["SCAN 1 4006381333931"])
        // A swipe, gone: frames without it do not end the wait (a next frame may read it, add-on and all); the
        // wait's end does, before the code could be lost.
        var v = CodeTracker()
        #expect(v.observe([beside], at: ms(0)).isEmpty && v.observe([beside], at: ms(33)).isEmpty)
        #expect(v.observe([], at: ms(66)).isEmpty && v.tick(at: ms(299)).isEmpty)
        #expect(summary(v.tick(at: ms(300))) == ["SCAN 1 4006381333931"])
        // Waiting is not confirming: a code read once on few lines waits for its second read as before.
        var few = CodeTracker()
        #expect(few.observe([read("96385074", rows: 400...406, barsBeside: true)], at: ms(0)).isEmpty)
        #expect(few.observe([], at: ms(33)).isEmpty)
    }
}
