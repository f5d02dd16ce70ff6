import Foundation
import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

/// The linear localizer: finds tilted and small linear codes with their bar direction and module width, and
/// the bands it cuts read them; text and texture give few candidates.
@Suite struct LinearLocatorTests {
    func located(_ image: LumaImage, _ locator: LinearLocator = LinearLocator()) -> [LinearLocator.Candidate] {
        image.withView { locator.find(in: $0, region: Scene.full(image)) }
    }

    @Test(arguments: [(-38.0, 2), (-12, 3), (0, 2), (17, 4), (29, 2), (40, 3), (63, 3), (-75, 2), (90, 3)])
    func aTiltedEANIsFoundWithItsDirectionAndModule(degrees: Double, module: Int) throws {
        let image = Scene.page(width: 1280, height: 720, [(Scene.symbol(.ean13, "4006381333931", module: module), x: 700, y: 380, degrees: degrees)])
        let found = located(image)
        let c = try #require(found.first)
        #expect(abs(c.centerX - 700) < 24 && abs(c.centerY - 380) < 24, "\(c)")
        // Directions are modulo 180°.
        var turn = abs(c.degrees - degrees).truncatingRemainder(dividingBy: 180)
        if turn > 90 { turn = 180 - turn }
        #expect(turn < 4, "\(c.degrees) for \(degrees)")
        #expect(c.module > Double(module) * 0.6 && c.module < Double(module) * 1.5, "\(c.module) for \(module)")
        let passes = LinearLocator.passes(for: [c], region: Scene.full(image), formats: .all, role: .locatedLinear, label: "band")
        let pass = try #require(passes.first)
        #expect(pass.formats == BarcodeFormats.linear && !pass.tryRotate)
        #expect(pass.upscale == (module < 3 ? 2 : 1), "module \(c.module)")
        let read = ZXingDecoder(isolated: false).decode(image, passes: passes).detections
        let hit = try #require(read.first { $0.text == "4006381333931" }, "\(read)")
        #expect(hit.corners.center.distance(to: Point(700, 380)) < 20, "\(hit.corners)")
    }

    /// A GS1-128 most of a 720p frame wide, level or standing: its widest bars and spaces (4 modules) leave whole
    /// columns of blocks without an edge, which once split it into pieces no band read (or, at 3 px modules, left
    /// no piece at all).
    @Test(arguments: [(0.0, 2), (0, 3), (0, 4), (-2, 4), (90, 2)])
    func anUprightCodeAcrossMostOfTheFrameIsFoundWhole(degrees: Double, module: Int) throws {
        let text = "0101234567890128172612311234L5678"
        let symbol = Scene.symbol(.code128, text, module: module)
        let image = Scene.page(width: 1280, height: 720, [(symbol, x: 640, y: 360, degrees: degrees)])
        let found = located(image)
        let c = try #require(found.first)
        #expect(found.count == 1 && c.length > Double(symbol.width) * 0.85, "\(found) for a symbol \(symbol.width) px wide")
        let passes = LinearLocator.passes(for: found, region: Scene.full(image), formats: .all, role: .locatedLinear, label: "band")
        #expect(ZXingDecoder(isolated: false).decode(image, passes: passes).detections.map(\.text) == [text])
    }

    /// An EAN with its add-on is one candidate, whose band reads both: a band around the main number alone read
    /// it without the add-on every frame, and the whole-frame passes that would read both were then not needed.
    @Test(arguments: [
        (0.0, 3, BarcodeFormat.ean13, "4006381333931+51299"), (0, 2, .ean13, "4006381333931+12"), (-24, 3, .upcA, "036000291452+51299"),
        (33, 2, .ean13, "4006381333931+51299")
    ])
    func anEANAndItsAddOnAreOneCandidate(degrees: Double, module: Int, format: BarcodeFormat, text: String) throws {
        let symbol = try SymbolWriter.render(format, text: text, moduleSize: module)
        // At 640x480 the blocks are 8 px: the 7–12 modules between the two are more blocks than a code's bars skip.
        let image = Scene.page(width: 640, height: 480, [(symbol, x: 320, y: 240, degrees: degrees)])
        let found = located(image)
        #expect(found.count == 1, "\(found)")
        let passes = LinearLocator.passes(for: found, region: Scene.full(image), formats: .all, role: .locatedLinear, label: "band")
        // Scan lines of the band that miss the add-on read the main number alone (the tracker joins them).
        let read = Set(ZXingDecoder(isolated: false).decode(image, passes: passes).detections.map(\.text))
        let main = String(text.prefix { $0 != "+" }), whole = text.replacingOccurrences(of: "+", with: "")
        #expect(read.contains(whole) && read.isSubset(of: [main, whole]), "\(read) from \(found)")
    }

    /// Two pieces of bars, each too short to be a code, one block apart across the bars: over a flat gap (the
    /// inside of a wide bar or space) they are one candidate; over busy texture (incoherent edges, as between
    /// patches of a printed pattern) they stay two, and neither is a candidate.
    @Test(arguments: [false, true])
    func piecesOfBarsJoinOverAFlatGapOnly(textured: Bool) {
        var page = LumaImage(width: 1280, height: 720, fill: 225)
        Scene.stripes(on: &page, x: 500, y: 300, width: 40, height: 60)
        Scene.stripes(on: &page, x: 562, y: 300, width: 40, height: 60)
        if textured {
            var seed: UInt64 = 7
            for y in 300..<360 {
                for x in 542..<560 {
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    page[x, y] = UInt8(40 + (seed >> 57))
                }
            }
        }
        let found = located(page)
        #expect(found.count == (textured ? 0 : 1), "\(found)")
    }

    /// Blocks join across a gap in the bars' direction only: two codes one above the other, a few modules apart,
    /// stay two candidates, each read from its own band (joined in every direction, the 2 px pair was one).
    @Test(arguments: [(2, 4), (2, 12), (3, 12)])
    func codesStackedAlongTheirBarsStayApart(module: Int, gapModules: Int) {
        let ean = Scene.symbol(.ean13, "4006381333931", module: module), ticket = Scene.symbol(.code128, "TICKET-0042", module: module)
        let gap = Double(gapModules * module)
        let image = Scene.page(
            width: 1280, height: 720,
            [
                (ean, x: 640, y: 360 - Double(ean.height) / 2 - gap / 2, degrees: 0),
                (ticket, x: 640, y: 360 + Double(ticket.height) / 2 + gap / 2, degrees: 0)
            ])
        let found = located(image)
        #expect(found.count == 2, "\(found)")
        let passes = LinearLocator.passes(for: found, region: Scene.full(image), formats: .all, role: .locatedLinear, label: "band")
        #expect(Set(ZXingDecoder(isolated: false).decode(image, passes: passes).detections.map(\.text)) == ["4006381333931", "TICKET-0042"])
    }

    @Test func everyCodeOfAFrameIsFoundTogether() {
        let image = Scene.page(
            width: 1280, height: 720,
            [
                (Scene.symbol(.code128, "TICKET-0042", module: 3), x: 300, y: 200, degrees: 25),
                (Scene.symbol(.upcA, "036000291452", module: 2), x: 900, y: 250, degrees: -33),
                (Scene.symbol(.itf, "00012345678905", module: 3), x: 640, y: 560, degrees: 8)
            ])
        let found = located(image)
        let passes = LinearLocator.passes(for: found, region: Scene.full(image), formats: .all, role: .locatedLinear, label: "band")
        let texts = Set(ZXingDecoder(isolated: false).decode(image, passes: passes).detections.map(\.text))
        #expect(texts.isSuperset(of: ["TICKET-0042", "036000291452", "00012345678905"]), "\(texts) from \(found)")
    }

    @Test func aBandNearTheEdgeKeepsInsideTheRegion() throws {
        let image = Scene.page(width: 640, height: 480, [(Scene.symbol(.ean8, "96385074", module: 3), x: 120, y: 90, degrees: 35)])
        let region = PixelRect(x: 0, y: 0, width: 640, height: 480)
        let c = try #require(located(image).first)
        let pass = try #require(LinearLocator.passes(for: [c], region: region, formats: .all, role: .locatedLinear, label: "band").first)
        let g = PassGeometry(pass)
        for corner in [Point(0, 0), Point(Double(g.width - 1), 0), Point(0, Double(g.height - 1)), Point(Double(g.width - 1), Double(g.height - 1))] {
            let p = g.sourcePoint(corner)
            #expect(p.x >= -1 && p.y >= -1 && p.x <= 640 && p.y <= 480, "\(p)")
        }
        #expect(ZXingDecoder(isolated: false).decode(image, passes: [pass]).detections.contains { $0.text == "96385074" })
    }

    /// Text, a matrix code and noise are not bars: no candidate has a line of edges like a code's.
    @Test func textAndTextureGiveNoCandidate() {
        var page = Scene.page(width: 1280, height: 720, [(Scene.symbol(.qrCode, "https://example.org/t/42", module: 6), x: 900, y: 360, degrees: 10)])
        var seed: UInt64 = 7
        // Noise over the left half: the kind a sensor gives in the dark.
        for y in 0..<720 {
            for x in 0..<600 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                page[x, y] = UInt8(clamping: 128 + Int(seed >> 59) - 16)
            }
        }
        #expect(located(page).isEmpty, "\(located(page))")
    }
}

/// Live frames read the linear codes the localizer finds from their bands, every frame, whatever the rota of
/// expensive passes.
@Suite struct LocatedLinearFrameTests {
    func decoder() -> FrameDecoder {
        var d = FrameDecoder(decoder: ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker(lanes: 1)))
        d.extraPassBudgetMilliseconds = 0  // no expensive pass: what is read, the every-frame passes read
        return d
    }

    @Test func aTiltedSmallCodeIsReadInItsFirstFrameAndEveryFrameAfter() throws {
        let frame = Frame.yuyv(
            Scene.page(width: 1280, height: 720, [(Scene.symbol(.ean13, "4006381333931", module: 2), x: 400, y: 300, degrees: 31)]))
        var d = decoder()
        for _ in 0..<3 {
            #expect(try d.decode(frame).detections.map(\.text) == ["4006381333931"])
            #expect(d.lastPasses.contains { $0.role == .locatedLinear })
            #expect(d.lastExtras.isEmpty)
        }
    }

    /// Bars that are no code (a striped print): their band is read a few times, then rests; while the scene is
    /// still and new (`retriesUnreadPatches`), every frame, as a defocused code held up might read in any one.
    @Test func aStripedSurfaceRestsFromItsBand() throws {
        var page = LumaImage(width: 1280, height: 720, fill: 225)
        Scene.stripes(on: &page, x: 500, y: 250, width: 300, height: 200)
        let frame = Frame.yuyv(page)
        var d = decoder()
        var bands: [Int] = []
        for _ in 0..<(FrameDecoder.bandRest + 2) {
            #expect(try d.decode(frame).detections.isEmpty)
            #expect(d.hadUnreadPatches, "resting or not, the stripes are there")
            bands.append(d.lastPasses.count { $0.role == .locatedLinear })
        }
        #expect(bands.prefix(FrameDecoder.fruitlessBandsBeforeRest).allSatisfy { $0 == 1 }, "\(bands)")
        #expect(bands.reduce(0, +) < bands.count, "\(bands)")
        d.retriesUnreadPatches = true
        for _ in 0..<(FrameDecoder.bandRest + 2) {
            #expect(try d.decode(frame).detections.isEmpty)
            #expect(d.lastPasses.count { $0.role == .locatedLinear } == 1 && d.hadUnreadPatches)
        }
        let blank = Frame.yuyv(LumaImage(width: 1280, height: 720, fill: 225))
        _ = try d.decode(blank)
        #expect(!d.hadUnreadPatches)
    }
}

extension LinearLocatorTests {
    /// A long stripe of fine bars (a grille, a striped print) is enlarged less than a code's band would be.
    @Test func aLongFineStripeIsNotEnlargedPastTheBandBudget() throws {
        let c = LinearLocator.Candidate(
            centerX: 640, centerY: 360, degrees: 20, length: 1100, thickness: 200, module: 1.0, edges: 400, coherence: 0.9,
            bounds: PixelRect(x: 90, y: 260, width: 1100, height: 200))
        let region = PixelRect(x: 0, y: 0, width: 1280, height: 720)
        let pass = try #require(LinearLocator.passes(for: [c], region: region, formats: .all, role: .locatedLinear, label: "band").first)
        #expect(pass.crop.width * pass.crop.height * pass.upscale * pass.upscale <= LinearLocator.maximumBandPixels || pass.upscale == 1)
        #expect(pass.upscale < 3)
    }
}
