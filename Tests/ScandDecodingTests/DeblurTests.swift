import Testing
import ScandCore
import ScandBarPattern
@testable import ScandDecoding
import ScandTestSupport

/// Issue 30, 2: a code swiped across its bars within the exposure is smeared past reading, and one held out of
/// focus blurred past it; a located band with the blur undone reads it (`LinearLocator.deblurred`, the shim's
/// `UndoRowBlur`).
@Suite struct DeblurTests {
    static let text = "2284368540608"

    /// An EAN-13 of `module` px on a 640x240 page at `x`.
    static func page(at x: Int = 320, module: Int = 2) -> LumaImage {
        let code = try! SymbolWriter.render(.ean13, text: text, moduleSize: module)
        return Scene.page(width: 640, height: 240, background: 225, centred: [(code, x: x, y: 120)])
    }

    /// The EAN-13 smeared `length` px across its bars.
    static func swiped(at x: Int = 320, length: Double = 5.5) -> LumaImage { Scene.smeared(page(at: x), length: length) }

    /// An EAN-13 of 3 px modules under a glare spot over its middle, out of focus: a Gaussian of `sigma` px.
    /// A threshold of the whole row misses the bars the glare lifts; one that follows it reads them.
    static func defocused(sigma: Double = 1.3, seed: UInt32 = 7) -> LumaImage {
        Scene.defocused(Scene.glared(page(module: 3), x: 320, y: 120, radius: 50, strength: 0.9), sigma: sigma, seed: seed)
    }

    static func bands(_ image: LumaImage, faint: Bool = false) -> [DecodePass] {
        let region = Scene.full(image)
        let found = image.withView { LinearLocator().find(in: $0, region: region, includingFaint: faint) }
        return LinearLocator.passes(for: found, region: region, formats: .linear, role: .locatedLinear, label: "band")
    }

    /// Neither the whole image nor the band reads the smeared or the defocused code; the band deblurred does,
    /// by at least two guesses at the blur (which `deblurredReadsWeighed` wants).
    @Test func theLocatedBandsOfASmearedOrDefocusedCodeReadIt() {
        let decoder = ZXingDecoder(isolated: false)
        for image in [Self.swiped(), Self.defocused()] {
            var plain = Scene.plainPass(image, .linear)
            plain.tryHarder = true
            #expect(decoder.decode(image, passes: [plain]).detections.isEmpty, "the blur leaves nothing zxing reads")
            let bands = Self.bands(image)
            #expect(bands.count == 1)
            #expect(decoder.decode(image, passes: bands).detections.isEmpty)
            let passes = bands.flatMap { LinearLocator.deblurred($0, moving: true) }
            let reads = decoder.decode(image, passes: passes).found
            #expect(reads.count >= 2 && reads.allSatisfy { $0.detection.text == Self.text }, "\(reads.map(\.detection.text))")
            #expect(FrameDecoder.deblurredReadsWeighed(reads, passes: passes).count == reads.count)
        }
    }

    /// Printed at half contrast and smeared by 7.5 px, the 2 px modules' edges are mostly gone: too few for a
    /// code, but the blocks' one direction remains.
    @Test func aCodeSmearedPastCountingItsEdgesIsFoundFaint() {
        var page = Self.page()
        page.pixels = page.pixels.map { UInt8(clamping: 128 + (Int($0) - 128) / 2) }
        let image = Scene.smeared(page, length: 7.5)
        #expect(Self.bands(image).isEmpty)
        let region = Scene.full(image)
        let faint = image.withView { LinearLocator().find(in: $0, region: region, includingFaint: true) }
        #expect(faint.count == 1 && faint.allSatisfy(\.isFaint), "\(faint)")
        // Its band is three times the blocks' length: they may be the code's wide bars on one side.
        let band = LinearLocator.passes(for: faint, region: region, formats: .linear, role: .locatedLinear, label: "faint")
        #expect(band.count == 1 && band.allSatisfy { Double($0.crop.width) >= 3 * faint[0].length - 1 })
    }

    /// A code found only faint (here: a locator that wants more edges than an EAN-13 has) has its band read
    /// deblurred, smears included, in its first frame while the scene moves, and not as it is; in a still
    /// scene it is not looked for.
    @Test func aFaintBandIsReadDeblurredInAMovingSceneOnly() throws {
        var decoder = FrameDecoder(formats: .linear)
        decoder.extraPassBudgetMilliseconds = 0
        decoder.locator.minimumEdges = 80
        _ = try decoder.decode(Frame.yuyv(Self.swiped()))
        #expect(!decoder.lastPasses.contains { $0.role == .locatedLinear })
        #expect(decoder.lastPasses.contains { $0.role == .deblurredLinear && $0.unsmear > 0 })

        var still = FrameDecoder(formats: .linear)
        still.extraPassBudgetMilliseconds = 0
        still.locator.minimumEdges = 80
        still.sceneIsStill = true
        #expect(try still.decode(Frame.yuyv(Self.swiped())).detections.isEmpty)
        #expect(!still.lastPasses.contains { $0.role == .deblurredLinear || $0.role == .locatedLinear })
    }

    @Test func aStillSceneIsNotUnsmeared() {
        let band = DecodePass(.locatedLinear, label: "band", crop: PixelRect(x: 0, y: 0, width: 300, height: 60), formats: .linear)
        #expect(LinearLocator.deblurred(band, moving: false).allSatisfy { $0.unsmear == 0 && $0.defocus > 0 })
        #expect(LinearLocator.deblurred(band, moving: true).contains { $0.unsmear > 0 })
        #expect(LinearLocator.deblurred(band, moving: true).allSatisfy { $0.crop.height == LinearLocator.deblurredRows })
    }

    @Test(arguments: [1, -2, 65])
    func anUnsmearOutOfRangeIsABadArgument(_ length: Int) {
        let image = LumaImage(width: 64, height: 64, fill: 200)
        var p = Scene.plainPass(image, .linear)
        p.unsmear = length
        #expect(ZXingDecoder(isolated: false).decode(image, passes: [p]).failures.map(\.message) == ["unsmear must be 0 or 2...64"])
    }

    /// A band a few pixels wide, narrower than the threshold's window: read, nothing found, nothing failed.
    @Test(arguments: [2, 3, 5, 9, 17])
    func aNarrowBandIsDeblurredWithinItsOwnPixels(_ width: Int) {
        let image = Self.defocused()
        var p = DecodePass(label: "narrow", crop: PixelRect(x: 300, y: 100, width: width, height: 24), formats: .linear)
        p.binarizer = .fixedThreshold
        for (length, sigma) in [(0, 0.5), (0, 20.0), (64, 0.0), (2, 3.0)] {
            p.unsmear = length
            p.defocus = sigma
            let report = ZXingDecoder().decode(image, passes: [p])
            #expect(report.failures.isEmpty && report.detections.isEmpty, "\(report.failures)")
        }
    }

    @Test(arguments: [0.4, -1, 20.5, .nan, .infinity, 1e300])
    func aDefocusOutOfRangeIsABadArgument(_ sigma: Double) {
        let image = LumaImage(width: 64, height: 64, fill: 200)
        var p = Scene.plainPass(image, .linear)
        p.defocus = sigma
        #expect(
            ZXingDecoder(isolated: false).decode(image, passes: [p]).failures.map(\.message) == ["defocus must be 0 or 0.5...20 pixels"])
    }

    /// A read with a defocus undone stands where another guess at the blur of the same band reads the same main
    /// number (with its add-on or without), and then as one scan line; a guess alone, two guesses that
    /// disagree, or two reads of one guess do not stand (a wrong guess can restore bars that pass the check
    /// digit). A smear's guess stands alone, as one scan line.
    @Test func aDefocusedReadStandsWhereAnotherGuessAgrees() {
        let outline = Quadrilateral([Point(100, 100), Point(300, 100), Point(300, 110), Point(100, 110)])
        let band = DecodePass(.locatedLinear, label: "band", crop: PixelRect(x: 90, y: 80, width: 240, height: 60), formats: .linear)
        let passes = [band] + LinearLocator.deblurred(band, moving: true)
        let smear = passes.firstIndex { $0.unsmear > 0 }!, defocus = passes.indices.filter { passes[$0].defocus > 0 }
        func read(_ text: String, pass: Int, at dx: Double = 0) -> DecodeReport.Found {
            let corners = Quadrilateral(outline.corners.map { Point($0.x + dx, $0.y) })
            let d = Detection(format: .ean8, text: text, bytes: Array(text.utf8), corners: corners, lineCount: 12)
            return DecodeReport.Found(detection: d, role: passes[pass].role, pass: pass)
        }
        func weighed(_ found: [DecodeReport.Found]) -> [DecodeReport.Found] { FrameDecoder.deblurredReadsWeighed(found, passes: passes) }
        let kept = weighed([read("09848351", pass: defocus[0]), read("0984835112", pass: defocus[1])])
        #expect(kept.map(\.detection.text) == ["09848351", "0984835112"] && kept.allSatisfy { $0.detection.lineCount == 1 })
        #expect(weighed([read("32620429", pass: defocus[0])]).isEmpty)
        #expect(weighed([read("38629129", pass: defocus[0]), read("32620429", pass: defocus[1])]).isEmpty)
        #expect(weighed([read("32620429", pass: defocus[0]), read("32620429", pass: defocus[0])]).isEmpty)
        #expect(weighed([read("32620429", pass: defocus[0]), read("32620429", pass: defocus[1], at: 500)]).isEmpty)
        #expect(weighed([read("09848351", pass: smear)]).map(\.detection.lineCount) == [1])
        // A code another pass read needs no deblurring; that pass's read stays as it is.
        let plain = read("09848351", pass: 0)
        #expect(weighed([plain, read("09848351", pass: smear), read("09848351", pass: defocus[0])]).map(\.pass) == [0])
        #expect(weighed([plain]).map(\.detection.lineCount) == [12])
    }

    /// The decoder's next frame, the code moved on, reads the band that read nothing deblurred, as one scan line
    /// (its rows share one guess at the blur); a first frame's bands are not deblurred.
    @Test func aBandThatReadNothingIsReadDeblurredInTheNextFrame() throws {
        var decoder = FrameDecoder(formats: .linear)
        decoder.extraPassBudgetMilliseconds = 0
        let first = try decoder.decode(Frame.yuyv(Self.swiped(at: 280)))
        #expect(first.detections.isEmpty && !decoder.lastPasses.contains { $0.role == .deblurredLinear })
        let second = try decoder.decode(Frame.yuyv(Self.swiped(at: 330)))
        #expect(second.detections.map(\.text) == [Self.text])
        #expect(second.detections.allSatisfy { $0.lineCount <= 1 }, "\(second.detections.map(\.lineCount))")
        // A read of invented pixels, carrying the smear its band had undone; held against the frame's own bars
        // under that smear, it agrees (without the smear modelled no blurred pattern fits them: no verdict).
        let read = try #require(second.detections.first)
        #expect(read.reconstructed && (4...7).contains(read.smear), "\(read.smear)")
        #expect(read.barsAgree == true)
        var unmodelled = read
        unmodelled.smear = 0
        #expect(Self.swiped(at: 330).withView { BarPatternCheck.verdict(unmodelled, in: $0).main } == nil)
    }

    /// A defocused code held still: the second frame reads it with the defocus undone, and a still scene's
    /// bands are never unsmeared (nothing moved).
    @Test func aDefocusedCodeHeldStillIsReadInItsSecondFrame() throws {
        var decoder = FrameDecoder(formats: .linear)
        decoder.extraPassBudgetMilliseconds = 0
        decoder.sceneIsStill = true
        #expect(try decoder.decode(Frame.yuyv(Self.defocused(sigma: 1.2, seed: 1))).detections.isEmpty)
        #expect(try decoder.decode(Frame.yuyv(Self.defocused(sigma: 1.2, seed: 11))).detections.map(\.text) == [Self.text])
        #expect(decoder.lastPasses.contains { $0.role == .deblurredLinear })
        #expect(decoder.lastPasses.allSatisfy { $0.unsmear == 0 })
    }
}
