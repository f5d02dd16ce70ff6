import Testing
@testable import ScandCore
@testable import ScandService

/// A frame's EAN/UPC read backed by many agreeing scan lines spread over the bars counts as two reads.
@Suite struct ScanLineEvidenceTests {
    func ms(_ n: Int) -> Duration { .milliseconds(n) }

    func summary(_ events: [TrackEvent]) -> [String] {
        events.map { "\($0.kind) \($0.id) \($0.detection.text)" }
    }

    /// A linear read on `lines` agreeing scan lines between rows `rows`, from x 540 to `right`.
    func read(_ text: String, _ format: BarcodeFormat = .ean8, right: Double = 740, rows: ClosedRange<Double>, lines: Int) -> Detection {
        Detection(
            format: format, text: text, bytes: Array(text.utf8),
            corners: Quadrilateral([
                Point(540, rows.lowerBound), Point(right, rows.lowerBound), Point(right, rows.upperBound), Point(540, rows.upperBound)
            ]), lineCount: lines)
    }

    @Test func manyLinesSpreadOverTheBarsAreWorthTwoReads() {
        #expect(ScanLineEvidence.readsWorth(read("96385074", rows: 400...420, lines: 8)) == 2)
        // Too few lines, or lines bunched together (neighbours seeing the same pixels): one read.
        #expect(ScanLineEvidence.readsWorth(read("96385074", rows: 400...420, lines: 7)) == 1)
        #expect(ScanLineEvidence.readsWorth(read("96385074", rows: 400...410, lines: 19)) == 1)
        // Formats without a check digit count frames whatever the lines: a striped surface reads alike on all.
        for format in [BarcodeFormat.codabar, .itf, .code39, .code128] {
            #expect(ScanLineEvidence.readsWorth(read("A123456B", format, rows: 400...440, lines: 30)) == 1)
        }
    }

    @Test func anEAN8ReadOnManyLinesIsScannedInItsFirstFrame() {
        var t = CodeTracker()
        #expect(summary(t.observe([read("96385074", rows: 400...424, lines: 19)], at: ms(0))) == ["SCAN 1 96385074"])
        // On a few lines it still waits for a second frame.
        var u = CodeTracker()
        #expect(u.observe([read("96385074", rows: 400...424, lines: 3)], at: ms(0)).isEmpty)
        #expect(summary(u.observe([read("96385074", rows: 400...424, lines: 3)], at: ms(33))) == ["SCAN 1 96385074"])
        // Reads of one frame on two groups of lines add up, and their outline spans both.
        var v = CodeTracker()
        let upper = read("96385074", rows: 389...395, lines: 4), lower = read("96385074", rows: 505...536, lines: 5)
        #expect(summary(v.observe([upper, lower], at: ms(0))) == ["SCAN 1 96385074"])
    }

    @Test func aContradictingReadStillStartsTheCountOver() {
        var t = CodeTracker()
        #expect(t.observe([read("96385074", rows: 400...402, lines: 3)], at: ms(0)).isEmpty)
        // Another EAN-8 in the same place: neither is confirmed by the other's reads.
        #expect(t.observe([read("96385081", rows: 400...424, lines: 3)], at: ms(33)).isEmpty)
        #expect(t.observe([read("96385074", rows: 400...402, lines: 3)], at: ms(66)).isEmpty)
    }

    @Test func anAddOnOnManyLinesIsAgreedInOneFrameAndOnFewIsNot() {
        var t = CodeTracker()
        let priced = read("978030640615751299", .ean13, right: 900, rows: 400...430, lines: 12)
        #expect(summary(t.observe([priced], at: ms(0))) == ["SCAN 1 978030640615751299"])
        // The book on many lines and its add-on on two: the add-on is not vouched for by the book's lines.
        var u = CodeTracker()
        let book = read("9780306406157", .ean13, rows: 400...430, lines: 12)
        let addOnOnTwoLines = read("978030640615751299", .ean13, right: 900, rows: 431...433, lines: 2)
        #expect(u.observe([book, addOnOnTwoLines], at: ms(0)).isEmpty, "an add-on on two lines is one read")
        #expect(summary(u.observe([addOnOnTwoLines], at: ms(33))) == ["SCAN 1 978030640615751299"])
        // Two add-ons on many lines each in one frame disagree: the book waits, then is scanned without either.
        var v = CodeTracker()
        let other = read("978030640615751234", .ean13, right: 900, rows: 440...470, lines: 12)
        #expect(v.observe([priced, other], at: ms(0)).isEmpty)
        #expect(summary(v.tick(at: ms(100))) == ["SCAN 1 9780306406157"])
    }
}
