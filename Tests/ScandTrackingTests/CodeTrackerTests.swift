import Testing
@testable import ScandCore
import ScandConfigFile
@testable import ScandTracking

@Suite struct CodeTrackerTests {
    func code(_ text: String, x: Double, format: BarcodeFormat = .qrCode, sequence: Detection.Sequence? = nil) -> Detection {
        Detection(
            format: format, text: text, bytes: Array(text.utf8),
            corners: Quadrilateral([Point(x, 100), Point(x + 80, 100), Point(x + 80, 180), Point(x, 180)]), sequence: sequence)
    }

    /// Another valid EAN-13 read on a few lines where a scanned EAN-13's bars end, in frames that read the scanned
    /// one too (the till session's #51 at the recorded pace: its own number on 71 lines, another product's on 2):
    /// a rival of the scanned code, withheld while that is read there. A second EAN-13 beside it, not on its bars,
    /// is scanned at its second look, and so is a new item brought where the last one was once that is gone.
    @Test func aSecondNumberOnAScannedCodesBarsIsWithheld() {
        func line(_ text: String, y: Double, x: Double = 100) -> Detection {
            var d = Detection(
                format: .ean13, text: text, bytes: Array(text.utf8),
                corners: Quadrilateral([Point(x, y), Point(x + 285, y), Point(x + 285, y + 1), Point(x, y + 1)]))
            d.barsAgree = true
            return d
        }
        var t = CodeTracker()
        #expect(t.observe([line("6180244695584", y: 100)], at: ms(0)).isEmpty)
        #expect(summary(t.observe([line("6180244695584", y: 100)], at: ms(33))) == ["SCAN 1 6180244695584"])
        var rival: [String] = []
        for k in 2...8 { rival += summary(t.observe([line("6180244695584", y: 100), line("6780244695524", y: 140)], at: ms(33 * k))) }
        #expect(rival.isEmpty, "\(rival)")
        #expect(t.observe([line("6180244695584", y: 100), line("4006381333931", y: 100, x: 500)], at: ms(300)).isEmpty)
        #expect(summary(t.observe([line("6180244695584", y: 100), line("4006381333931", y: 100, x: 500)], at: ms(333))) == ["SCAN 3 4006381333931"])
        // The item taken away; 300 ms later another where it was.
        #expect(t.observe([line("5901234123457", y: 102)], at: ms(633)).isEmpty)
        #expect(summary(t.observe([line("5901234123457", y: 102)], at: ms(666))) == ["SCAN 4 5901234123457"])
    }

    /// Issue 45: a Codabar "-3" read from an ISBN's bars in 20 frames running (the hard-mix till, seed 11) is too
    /// short to be a code (`TrackerSettings.minimumLengths`, as hand scanners' length limits); a library's
    /// 4-character Codabar is scanned, and `min_length = ["Codabar=0"]` scans any.
    @Test func aCodabarShorterThanItsMinimumLengthIsNoCode() throws {
        var t = CodeTracker()
        var events: [String] = []
        for k in 0..<20 { events += summary(t.observe([code("-3", x: 10, format: .codabar)], at: ms(33 * k))) }
        #expect(events.isEmpty && t.visible.isEmpty, "\(events)")
        for k in 20..<24 { events += summary(t.observe([code("1234", x: 10, format: .codabar)], at: ms(33 * k))) }
        #expect(events == ["SCAN 1 1234"], "\(events)")
        var any = TrackerSettings()
        try any.setMinimumLength("Codabar=0")
        var all = CodeTracker(settings: any)
        events = []
        for k in 0..<4 { events += summary(all.observe([code("-3", x: 10, format: .codabar)], at: ms(33 * k))) }
        #expect(events == ["SCAN 1 -3"], "\(events)")
        #expect(throws: Problem.self) { try any.setMinimumLength("Codabar=-1") }
        #expect(throws: Problem.self) { try any.setMinimumLength("Nonsense=3") }
    }

    /// A default limit taken away is written as "Codabar=0", so that the file reads back as it was set (the
    /// configuration fuzzer: `min_length = ["Codabar=0"]` was written as `[]`, which reads back as the default 4).
    @Test func aLimitTakenAwayIsWrittenSoItReadsBack() throws {
        let table = SettingsTable(registering: [TrackerSettings.self])
        let config = try ScandConfig().applying(toml: "[tracking]\nmin_length = [\"Codabar=0\"]\n", table: table)
        #expect(config[section: TrackerSettings.self].minimumLengths[.codabar] == nil)
        let setting = try #require(table.settings.first { $0.key == "min_length" })
        #expect(setting.read(config) == .texts(["Codabar=0"]))
        let again = try ScandConfig().applying(toml: "[tracking]\nmin_length = \(setting.read(config).tomlText)\n", table: table)
        #expect(again[section: TrackerSettings.self].minimumLengths == config[section: TrackerSettings.self].minimumLengths)
        #expect(setting.read(ScandConfig()) == .texts(["Codabar=4"]), "the default as it was")
    }

    /// Issue 45: a shaken EAN-13 on a can (the hard-mix till, seed 10 #14, 2330056384129) read in some frames as
    /// the UPC-E of its left half (13300562: number system 1, its check digit the EAN-13's first): that UPC-E is
    /// never scanned while the EAN-13 was read within the forget time before it or is read since, whichever
    /// comes first. A UPC-E of number system 1 with no such EAN-13 is scanned; so is one of number system 0.
    @Test func aUPCEThatIsAnEAN13sLeftHalfIsNotScanned() {
        func read(_ text: String, _ format: BarcodeFormat, x: Double = 100) -> Detection {
            var d = code(text, x: x, format: format)
            d.barsAgree = true
            return d
        }
        var t = CodeTracker()
        var events: [String] = []
        // (Read apart from the EAN-13's place: a shaken code's reads are not where its last read was.)
        for k in 0...5 { events += summary(t.observe([read("2330056384129", .ean13)], at: ms(33 * k))) }
        for k in 20...40 { events += summary(t.observe([read("13300562", .upcE, x: 600)], at: ms(33 * k))) }
        #expect(events == ["SCAN 1 2330056384129", "LOST 1 2330056384129"], "\(events)")
        // The UPC-E first, the EAN-13 in a later frame: still never the UPC-E.
        var u = CodeTracker()
        events = []
        events += summary(u.observe([read("13300562", .upcE, x: 600)], at: ms(0)))
        events += summary(u.observe([read("2330056384129", .ean13), read("13300562", .upcE, x: 600)], at: ms(33)))
        for k in 2...20 { events += summary(u.observe([read("13300562", .upcE, x: 600)], at: ms(33 * k))) }
        #expect(!events.contains { $0.hasSuffix("13300562") }, "\(events)")
        // An EAN-13 with other digits, or a UPC-E of number system 0 with the same: no part of each other.
        for (ean, upcE) in [("2330057384128", "13300562"), ("2330056384129", "03300565")] {
            var v = CodeTracker()
            events = []
            events += summary(v.observe([read(ean, .ean13)], at: ms(0)))
            for k in 1...20 { events += summary(v.observe([read(upcE, .upcE, x: 600)], at: ms(33 * k))) }
            #expect(events.contains { $0.hasSuffix(upcE) }, "\(ean) \(upcE): \(events)")
        }
    }

    @Test func oneScanWhileInViewThenLost() {
        var t = CodeTracker()
        #expect(summary(t.observe([code("a", x: 10)], at: ms(0))) == ["SCAN 1 a"])
        for i in 1...10 { #expect(t.observe([code("a", x: 10 + Double(i) * 5)], at: ms(i * 33)).isEmpty) }
        #expect(t.tick(at: ms(330 + 499)).isEmpty)
        #expect(summary(t.tick(at: ms(330 + 500))) == ["LOST 1 a"])
        #expect(t.visible.isEmpty)
    }

    /// Issue 30, 5: a still scene whose codes are all scanned rests; its codes stay in view while held, with
    /// UPDATE at its interval as if read, and are LOST once reads stop after the scene moves.
    @Test func heldCodesStayInViewWithoutBeingRead() {
        var settings = TrackerSettings()
        settings.updateInterval = .seconds(1)
        var t = CodeTracker(settings: settings)
        #expect(!t.isSettled)
        #expect(summary(t.observe([code("a", x: 10)], at: ms(0))) == ["SCAN 1 a"])
        #expect(t.isSettled)
        var held: [String] = []
        for i in 1...90 { held += summary(t.hold(at: ms(i * 33))) }
        #expect(held == ["UPDATE 1 a", "UPDATE 1 a"], "no LOST while held; UPDATE every second")
        #expect(t.visible.map(\.id) == [1])
        // A decode that does not read it: not settled (it may have gone), and LOST once unseen for long enough.
        #expect(t.observe([], at: ms(3000)).isEmpty && !t.isSettled)
        #expect(summary(t.tick(at: ms(3000 + 500))) == ["LOST 1 a"])
    }

    @Test func aCodeWaitingForConfirmationIsNotSettled() {
        var t = CodeTracker()
        _ = t.observe([code("a", x: 10)], at: ms(0))
        #expect(t.isSettled)
        _ = t.observe([code("a", x: 10), code("96385074", x: 300, format: .ean8)], at: ms(33))
        #expect(!t.isSettled, "an EAN-8 read once waits for its second read")
    }

    /// Issue 45, 4: a still scene whose codes are read but not all scanned rests between ever rarer decodes; the
    /// codes its last decode read stay in view while it is held, unscanned, and count one look at the next decode.
    /// A code that decode missed is not held (it may have gone), nor is a scene whose codes are all scanned one
    /// holding unscanned codes.
    @Test func aCodeNotYetScannedIsHeldInViewWhileItsSceneRests() {
        var t = CodeTracker()
        // 3 px modules: each read a whole look.
        var ean8 = Detection(
            format: .ean8, text: "96385074", bytes: Array("96385074".utf8),
            corners: Quadrilateral([Point(300, 100), Point(500, 100), Point(500, 180), Point(300, 180)]))
        ean8.barsAgree = true
        #expect(!t.holdsUnscannedCodes)
        _ = t.observe([ean8], at: ms(0))
        #expect(t.holdsUnscannedCodes, "an EAN-8 read once waits for its second read")
        var held: [String] = []
        for i in 1...60 { held += summary(t.hold(at: ms(i * 33))) }
        #expect(held.isEmpty && t.holdsUnscannedCodes, "neither scanned nor dropped while held: \(held)")
        #expect(summary(t.observe([ean8], at: ms(2000))) == ["SCAN 1 96385074"], "the same track, read a second time")
        #expect(!t.holdsUnscannedCodes && t.isSettled)

        var missed = CodeTracker()
        _ = missed.observe([ean8, code("a", x: 10)], at: ms(0))
        _ = missed.observe([code("a", x: 10)], at: ms(33))
        #expect(!missed.holdsUnscannedCodes && !missed.isSettled, "the EAN-8 was not read in the last decoded frame")
        for i in 2...30 { _ = missed.hold(at: ms(i * 33)) }
        #expect(missed.isSettled && missed.visible.map(\.id) == [2], "the EAN-8, not held, gone after lost_after; the QR code held")
    }

    @Test func comingBackWithinTheForgetTimeIsNoNewScan() {
        var t = CodeTracker()
        _ = t.observe([code("a", x: 10)], at: ms(0))
        #expect(summary(t.tick(at: ms(500))) == ["LOST 1 a"])
        // Back within 2 s of being lost, elsewhere in the frame: same id, no SCAN.
        #expect(t.observe([code("a", x: 400)], at: ms(2400)).isEmpty)
        #expect(t.visible.map(\.id) == [1])
        #expect(summary(t.tick(at: ms(2900))) == ["LOST 1 a"])
        // Lost for longer than the forget time: a new scan with a new id.
        _ = t.tick(at: ms(4900))
        #expect(summary(t.observe([code("a", x: 10)], at: ms(4950))) == ["SCAN 2 a"])
    }

    @Test func aLossNoticedLateCountsFromWhenItHappened() {
        // A stalled decoder (or camera) notices the loss only at 3 s; the code was lost at 0.5 s, so when it
        // shows again at 3.1 s the forget time is over: a new scan.
        var t = CodeTracker()
        _ = t.observe([code("a", x: 10)], at: ms(0))
        #expect(summary(t.tick(at: ms(3000))) == ["LOST 1 a"])
        #expect(summary(t.observe([code("a", x: 10)], at: ms(3100))) == ["SCAN 2 a"])
    }

    @Test func aStalledDecoderShowsNoCodeLeaving() {
        // A pass that hangs (or a decoder process restarted) stalls decoding for 3 s; the first frame after it
        // misses the code held up all along (noise), the next reads it: no LOST, no second SCAN.
        var t = CodeTracker()
        _ = t.observe([code("a", x: 10)], at: ms(0))
        #expect(t.observe([], at: ms(3000)).isEmpty)
        #expect(t.observe([code("a", x: 10)], at: ms(3033)).isEmpty)
        #expect(t.visible.map(\.id) == [1])
        // Taken away after all: LOST once decoded frames have missed it for `lostAfter` since its last read.
        #expect(t.observe([], at: ms(3066)).isEmpty && t.observe([], at: ms(3532)).isEmpty)
        #expect(summary(t.observe([], at: ms(3533))) == ["LOST 1 a"])
        // And after a stall with the code gone, LOST `lostAfter` after the first frame that showed it gone.
        _ = t.tick(at: ms(6000))
        #expect(summary(t.observe([code("a", x: 10)], at: ms(6000))) == ["SCAN 2 a"])
        #expect(t.observe([], at: ms(9000)).isEmpty && t.observe([], at: ms(9499)).isEmpty)
        #expect(summary(t.observe([], at: ms(9500))) == ["LOST 2 a"])
    }

    /// A DataBar turned 30° or so is read as a DataBar Stacked in some frames: the same code, never a second SCAN.
    @Test func aDataBarReadAsStackedIsTheSameCode() {
        var t = CodeTracker()
        let text = "01373068773995"
        var events: [String] = []
        for i in 0..<3 { events += summary(t.observe([code(text, x: 10, format: .dataBar)], at: ms(i * 33))) }
        #expect(events == ["SCAN 1 \(text)"])
        // Lost, then read again elsewhere as stacked within the forget time; and read so beside it while in view.
        _ = t.tick(at: ms(700))
        var later: [String] = []
        for i in 0..<4 { later += summary(t.observe([code(text, x: 300, format: .dataBarStacked)], at: ms(1300 + i * 33))) }
        #expect(later.allSatisfy { !$0.hasPrefix("SCAN") }, "\(later)")
    }

    /// After a stall the duplicate filter counts from the first frame that showed the code gone, as LOST does: a
    /// QR code (scanned on one read) moved during a 0.6 s stall and read elsewhere 0.7 s after it is the same code.
    @Test func aCodeMovedDuringAStallIsNoNewScan() {
        var t = CodeTracker()
        _ = t.observe([code("a", x: 10)], at: ms(0))
        #expect(t.observe([], at: ms(600)).isEmpty)
        #expect(t.observe([code("a", x: 400)], at: ms(1300)).isEmpty)
    }

    @Test func twoIdenticalCodesAreTwoTracksWithoutTheDuplicateFilter() {
        var settings = TrackerSettings()
        settings.duplicateFilter = .zero
        var t = CodeTracker(settings: settings)
        #expect(summary(t.observe([code("same", x: 10), code("same", x: 500)], at: ms(0))) == ["SCAN 1 same", "SCAN 2 same"])
        // They keep their ids as they move a little, whichever order zxing reports them in.
        #expect(t.observe([code("same", x: 505), code("same", x: 15)], at: ms(33)).isEmpty)
        let byX = t.visible.sorted { $0.detection.corners.center.x < $1.detection.corners.center.x }
        #expect(byX.map(\.id) == [1, 2])
    }

    @Test func weakFormatsNeedAgreeingReadsAndAMisreadIsNeverEmitted() {
        var t = CodeTracker()
        let good = code("00123456789012", x: 10, format: .itf), bad = code("00123456789036", x: 12, format: .itf)
        #expect(t.observe([good], at: ms(0)).isEmpty)
        #expect(t.observe([bad], at: ms(33)).isEmpty)  // disagrees: the good read's count starts over
        #expect(t.observe([good], at: ms(66)).isEmpty)
        #expect(t.observe([good], at: ms(99)).isEmpty)
        #expect(summary(t.observe([good], at: ms(132))) == ["SCAN 1 00123456789012"])
        #expect(summary(t.tick(at: ms(2000))) == ["LOST 1 00123456789012"], "the misread vanished without an event")
        // Short linear reads need two reads whatever the format.
        var s = CodeTracker()
        #expect(s.observe([code("12", x: 10, format: .code128)], at: ms(0)).isEmpty)
        #expect(s.observe([code("12", x: 10, format: .code128)], at: ms(33)).count == 1)
    }

    @Test func updatesAreRateLimited() {
        var settings = TrackerSettings()
        settings.updateInterval = .milliseconds(100)
        var t = CodeTracker(settings: settings)
        _ = t.observe([code("a", x: 10)], at: ms(0))
        var updates = 0
        for i in 1...30 { updates += t.observe([code("a", x: 10 + Double(i))], at: ms(i * 10)).count }
        #expect(updates == 3)
    }

    @Test func structuredAppendPartsBecomeOneScan() {
        var t = CodeTracker()
        let p0 = code("Hello, ", x: 10, sequence: .init(count: 3, index: 0, id: "9"))
        let p1 = code("kiosk ", x: 200, sequence: .init(count: 3, index: 1, id: "9"))
        let p2 = code("world", x: 400, sequence: .init(count: 3, index: 2, id: "9"))
        #expect(t.observe([p1, p0], at: ms(0)).isEmpty, "incomplete: held back")
        let events = t.observe([p2], at: ms(33))
        #expect(summary(events) == ["SCAN 1 Hello, kiosk world"])
        #expect(events.first?.detection.bytes == Array("Hello, kiosk world".utf8))
        #expect(events.first?.detection.sequence?.index == -1)
        // All three still in view: no more events.
        #expect(t.observe([p0, p1, p2], at: ms(66)).isEmpty)
    }
}

extension TrackEvent {
    /// The event's kind, for the tests' readable transcripts.
    var kind: String {
        switch self {
        case .scan: "SCAN"
        case .update: "UPDATE"
        case .lost: "LOST"
        }
    }
}
