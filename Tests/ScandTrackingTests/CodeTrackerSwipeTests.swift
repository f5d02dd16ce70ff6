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

    @Test func theWaitForAnAddOnBesideIsBoundedAndEndsWhenTheCodeLeaves() {
        let plain = read("4006381333931", .ean13, rows: 400...430, lines: 12, barsBeside: true)
        var t = CodeTracker()
        var events: [String] = []
        for i in 0..<9 { events += summary(t.observe([plain], at: ms(i * 33))) }
        #expect(events.isEmpty)
        #expect(summary(t.observe([plain], at: ms(300))) == ["SCAN 1 4006381333931"])
        // A swipe: read twice, then gone; the frame without it ends the wait.
        var u = CodeTracker()
        #expect(u.observe([plain], at: ms(0)).isEmpty && u.observe([plain], at: ms(33)).isEmpty)
        #expect(summary(u.observe([], at: ms(66))) == ["SCAN 1 4006381333931"])
        // Waiting is not confirming: a code read once on few lines waits for its second read as before.
        var v = CodeTracker()
        #expect(v.observe([read("96385074", rows: 400...406, barsBeside: true)], at: ms(0)).isEmpty)
        #expect(v.observe([], at: ms(33)).isEmpty)
    }
}
