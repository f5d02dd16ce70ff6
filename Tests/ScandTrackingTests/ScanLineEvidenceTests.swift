import Testing
@testable import ScandCore
@testable import ScandTracking

/// The evidence model (docs/architecture.md, "Why scand trusts a SCAN"): a number of a format whose own check is
/// weak is scanned only when independent looks agree on it, and outweigh every other number read on its bars.
@Suite struct ScanLineEvidenceTests {
    /// A linear read on `lines` agreeing scan lines between rows `rows`, from x 540 to `right` (an EAN-8 of 200 px:
    /// 3 px modules).
    func read(
        _ text: String, _ format: BarcodeFormat = .ean8, right: Double = 740, rows: ClosedRange<Double>, lines: Int = 3,
        reconstructed: Bool = false, barsAgree: Bool? = true
    ) -> Detection {
        var d = Detection(
            format: format, text: text, bytes: Array(text.utf8),
            corners: Quadrilateral([
                Point(540, rows.lowerBound), Point(right, rows.lowerBound), Point(right, rows.upperBound), Point(540, rows.upperBound)
            ]), lineCount: lines)
        d.reconstructed = reconstructed
        // As the live decoder reports them: their bars looked at again agree (`BarPatternCheck`).
        if ScanLineEvidence.patternChecked.contains(format) { d.barsAgree = barsAgree }
        return d
    }

    /// Frames of `reads` 33 ms apart from `start`; the events of each.
    func frames(_ t: inout CodeTracker, _ reads: [[Detection]], from start: Int = 0) -> [[String]] {
        reads.enumerated().map { k, r in summary(t.observe(r, at: ms(start + 33 * k))) }
    }

    @Test func oneGroupOfLinesIsOneLookHoweverManyLines() {
        #expect(ScanLineEvidence.units(read("96385074", rows: 400...440, lines: 40)) == 2)
        var t = CodeTracker()
        let many = read("96385074", rows: 400...440, lines: 40)
        #expect(frames(&t, [[many], [many]]) == [[], ["SCAN 1 96385074"]])
    }

    @Test func bandsThatShareNoPixelsAreTwoLooksInOneFrame() {
        var t = CodeTracker()
        let upper = read("96385074", rows: 389...395, lines: 4), lower = read("96385074", rows: 505...536, lines: 5)
        #expect(summary(t.observe([upper, lower], at: ms(0))) == ["SCAN 1 96385074"])
        // Overlapping lines are one look, whichever pass read them.
        var u = CodeTracker()
        let again = read("96385074", rows: 392...398, lines: 4)
        #expect(u.observe([upper, again], at: ms(0)).isEmpty)
        // Formats without a check digit count frames only: a striped surface reads alike on every band.
        let a = read("A123456B", .codabar, rows: 389...395), b = read("A123456B", .codabar, rows: 505...536)
        #expect(ScanLineEvidence.looks(of: [a, b]) == 1)
    }

    @Test func guessesOfOneBandDoNotConfirmEachOther() {
        // Two deblurring guesses of one band, read alike: half a look, however many guesses.
        let guesses = [
            read("96385074", rows: 400...402, lines: 1, reconstructed: true), read("96385074", rows: 460...462, lines: 1, reconstructed: true)
        ]
        #expect(ScanLineEvidence.independentReads(guesses) == 1)
        var t = CodeTracker()
        #expect(frames(&t, [guesses, guesses, guesses, guesses]) == [[], [], [], ["SCAN 1 96385074"]])
        // A plain read of the same frame makes the read one of real pixels.
        var u = CodeTracker()
        #expect(frames(&u, [guesses + [read("96385074", rows: 430...432)], [read("96385074", rows: 430...432)]]) == [[], ["SCAN 1 96385074"]])
    }

    @Test func smallModulesWeighHalf() {
        // An EAN-13 of 190 px: 2 px modules.
        let small = read("4006381333931", .ean13, right: 730, rows: 400...440)
        #expect(ScanLineEvidence.hasSmallModules(small))
        #expect(!ScanLineEvidence.hasSmallModules(read("4006381333931", .ean13, right: 840, rows: 400...440)))
        var t = CodeTracker()
        #expect(frames(&t, [[small], [small], [small], [small]]) == [[], [], [], ["SCAN 1 4006381333931"]])
    }

    @Test func disagreeingReadsWithholdUntilOneNumberOutweighsTheOthers() {
        // An EAN-8 read as its own number and as another on the same bars: at most one is right.
        let right = read("96385074", rows: 400...420), wrong = read("96385081", rows: 405...425)
        var t = CodeTracker()
        // right, wrong, right: one look each way net; two more looks of the right one are needed.
        #expect(frames(&t, [[right], [wrong], [right], [right]]) == [[], [], [], ["SCAN 1 96385074"]])
        var u = CodeTracker()
        // The wrong number first, then the right one.
        #expect(frames(&u, [[wrong], [right], [right], [right]]) == [[], [], [], ["SCAN 2 96385074"]])
        // Three different wrong numbers and never the right one (a shaken code): none is scanned.
        var v = CodeTracker()
        let w2 = read("96385098", rows: 402...422), w3 = read("96385104", rows: 398...418)
        let events = frames(&v, [[wrong], [w2], [wrong], [w3], [w2], [wrong]]).flatMap { $0 }
        #expect(events.isEmpty, "\(events)")
    }

    @Test func aUPCAOnAnEAN13sBarsIsItsRival() {
        // The EAN-13 and a UPC-A read from the same bars with the left half's parity wrong.
        let ean = read("9783403327219", .ean13, right: 840, rows: 400...420), upc = read("704483327219", .upcA, right: 840, rows: 404...424)
        var t = CodeTracker()
        #expect(frames(&t, [[upc], [ean], [upc], [ean]]).flatMap { $0 }.isEmpty)
    }

    @Test func anItemScannedAndTakenAwayCastsNoDoubtOnTheNext() {
        let first = read("96385074", rows: 400...420), next = read("12345670", rows: 400...420)
        var t = CodeTracker()
        #expect(frames(&t, [[first], [first], [first]]) == [[], ["SCAN 1 96385074"], []])
        // 200 ms of empty counter, then another item where the first was: scanned in its second frame, as the first.
        #expect(frames(&t, [[next], [next]], from: 300) == [[], ["SCAN 2 12345670"]])
    }

    @Test func aNumberIsScannedOnlyOnceItsBarsAgreedWithIt() {
        // Read in many frames, its bars never measured: not scanned.
        let unchecked = read("96385074", rows: 400...420, barsAgree: nil)
        var t = CodeTracker()
        #expect(frames(&t, Array(repeating: [unchecked], count: 10)).flatMap { $0 }.isEmpty)
        // One frame's bars agreeing is enough, with the looks.
        #expect(summary(t.observe([read("96385074", rows: 400...420)], at: ms(400))) == ["SCAN 1 96385074"])
        // Reads its bars contradict weigh against it: two contradicted, so four agreeing looks are needed.
        let contradicted = read("96385074", rows: 400...420, barsAgree: false), agreed = read("96385074", rows: 400...420)
        var u = CodeTracker()
        #expect(frames(&u, [[contradicted], [agreed], [contradicted], [agreed], [agreed], [agreed]]) == [[], [], [], [], [], ["SCAN 1 96385074"]])
    }

    @Test func redundancyIsASetting() {
        var settings = TrackerSettings()
        settings.redundancy = 1
        var t = CodeTracker(settings: settings)
        #expect(summary(t.observe([read("4006381333931", .ean13, right: 840, rows: 400...420)], at: ms(0))) == ["SCAN 1 4006381333931"])
        // EAN-8 keeps its own count of two (`TrackerSettings.confirmations`).
        var e = CodeTracker(settings: settings)
        #expect(e.observe([read("96385074", rows: 400...420)], at: ms(0)).isEmpty)
        settings.redundancy = 3
        var u = CodeTracker(settings: settings)
        let r = read("96385074", rows: 400...420)
        #expect(frames(&u, [[r], [r], [r]]) == [[], [], ["SCAN 1 96385074"]])
        // Formats with a strong check of their own are scanned on one read whatever the redundancy.
        var v = CodeTracker(settings: settings)
        let code128 = read("INV-1234", .code128, rows: 400...420)
        #expect(summary(v.observe([code128], at: ms(0))) == ["SCAN 1 INV-1234"])
    }

    @Test func aBookThatShowsItsAddOnIsNeverScannedWithoutIt() {
        var book = read("9780306406157", .ean13, right: 840, rows: 400...430)
        book.addOnBarsBeside = true
        var t = CodeTracker()
        // Two seconds in view, its add-on's bars beside it and never read: no SCAN, not even a half.
        let events = (0..<60).flatMap { k in t.observe([book], at: ms(33 * k)) } + t.tick(at: ms(3000)) + t.finish(at: ms(3000))
        #expect(!events.contains { $0.kind == "SCAN" }, "\(summary(events))")
        // Its add-on read in two frames: scanned with it.
        var u = CodeTracker()
        let priced = read("978030640615751299", .ean13, right: 930, rows: 400...430)
        #expect(frames(&u, [[book], [priced], [priced], [book]]).flatMap { $0 } == ["SCAN 1 978030640615751299"])
        // A book that shows no add-on is scanned without one, after the longer wait.
        var plain = book
        plain.addOnBarsBeside = false
        var v = CodeTracker()
        let waits = (0..<12).map { k in summary(v.observe([plain], at: ms(33 * k))) }
        #expect(waits.prefix(9).allSatisfy(\.isEmpty) && waits.joined().elementsEqual(["SCAN 1 9780306406157"]), "\(waits)")
        // Shops that want the main number alone turn it off.
        var settings = TrackerSettings()
        settings.addOnRequired = false
        var w = CodeTracker(settings: settings)
        let all = (0..<20).flatMap { k in summary(w.observe([book], at: ms(33 * k))) }
        #expect(all == ["SCAN 1 9780306406157"])
    }

    @Test func anAddOnMustOutweighTheOthersByTwoLooks() {
        #expect(CodeTracker.agreedAddOn(["51299": 2]) == "51299")
        #expect(CodeTracker.agreedAddOn(["51299": 2, "51290": 1]) == nil)
        #expect(CodeTracker.agreedAddOn(["51299": 3, "51290": 1]) == "51299")
        #expect(CodeTracker.agreedAddOn(["51299": 1]) == nil)
        // Two add-ons read on one code: the winner needs a frame whose bars agreed with it.
        #expect(CodeTracker.agreedAddOn(["51299": 3, "51290": 1], barsAgreed: []) == nil)
        #expect(CodeTracker.agreedAddOn(["51299": 3, "51290": 1], barsAgreed: ["51290"]) == nil)
        #expect(CodeTracker.agreedAddOn(["51299": 3, "51290": 1], barsAgreed: ["51299"]) == "51299")
        // One add-on only, read in two frames: those looks agree, with or without a bars verdict.
        #expect(CodeTracker.agreedAddOn(["51299": 2], barsAgreed: []) == "51299")
    }

    @Test func aReedSolomonSymbolReadFromAnEnlargedCropIsOneRead() {
        func symbol(_ format: BarcodeFormat, ecLevel: String = "") -> Detection {
            var d = Detection(
                format: format, text: "010581247241286221S40845699", bytes: Array("010581247241286221S40845699".utf8),
                corners: Quadrilateral([Point(660, 280), Point(790, 280), Point(790, 400), Point(660, 400)]))
            d.ecLevel = ecLevel
            d.reconstructed = true
            return d
        }
        // A GS1 DataMatrix under glare read once, by an enlarged crop (the till session's seed 30, #44): scanned.
        var t = CodeTracker()
        #expect(summary(t.observe([symbol(.dataMatrix)], at: ms(0))) == ["SCAN 1 010581247241286221S40845699"])
        for format in [BarcodeFormat.qrCode, .aztec, .microQRCode] {
            #expect(ScanLineEvidence.units(symbol(format, ecLevel: "M")) == 2, "\(format)")
        }
        // Weak correction (PDF417 at level 2, Micro QR at L) and Code 128's one check character: half a look.
        #expect(ScanLineEvidence.units(symbol(.pdf417, ecLevel: "2")) == 1)
        #expect(ScanLineEvidence.units(symbol(.microQRCode, ecLevel: "L")) == 1)
        #expect(ScanLineEvidence.units(symbol(.code128)) == 1)
        var u = CodeTracker()
        #expect(frames(&u, [[symbol(.code128)], [symbol(.code128)]]) == [[], ["SCAN 1 010581247241286221S40845699"]])
    }
}
