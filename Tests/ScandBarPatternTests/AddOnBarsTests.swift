import Testing
import ScandCore
@testable import ScandBarPattern
@testable import ScandDecoding
import ScandTestSupport

/// Issue 30, 3: the live decoder says when an EAN/UPC read without its add-on has an add-on's bars beside it.
@Suite struct AddOnBarsTests {
    func read(_ symbol: LumaImage, degrees: Double = 0) throws -> [Detection] {
        let page = Scene.page(width: 640, height: 480, [(symbol, x: 320, y: 240, degrees: degrees)])
        var decoder = FrameDecoder(formats: BarcodeFormats([.ean13, .upcA, .ean8, .upcE]))
        decoder.extraPassBudgetMilliseconds = 0
        return try decoder.decode(Frame.yuyv(page)).detections
    }

    @Test func anAddOnThatDoesNotReadShowsBesideItsCode() throws {
        let broken = try read(AddOnScene.brokenAddOn(.ean13, "4006381333931+51299", module: 3))
        #expect(broken.map(\.text) == ["4006381333931"] && broken.allSatisfy(\.addOnBarsBeside), "\(broken)")
        // Upside down: the add-on lies after the code's end, on the frame's left.
        let turned = try read(AddOnScene.brokenAddOn(.ean13, "4006381333931+51299", module: 3), degrees: 180)
        #expect(turned.map(\.text) == ["4006381333931"] && turned.allSatisfy(\.addOnBarsBeside), "\(turned)")
        let small = try read(AddOnScene.brokenAddOn(.upcA, "036000291452+51299", module: 2))
        #expect(small.map(\.text) == ["036000291452"] && small.allSatisfy(\.addOnBarsBeside), "\(small)")
    }

    /// Glare over the add-on alone lifts its bars above the threshold the code's own dark and light set: its place
    /// is looked at again with its own (the retail till's seed 43, #38: a UPC-A+5 under glare scanned without its
    /// add-on, the bars beside it unseen). A plain code with the same sheen beside it shows none.
    @Test func anAddOnUnderGlareShowsBesideItsCode() throws {
        /// `symbol` at (300, 240) with a sheen over all after its end guard (a glossy pack's add-on under a lamp:
        /// each pixel two-thirds of the way to white), and the frame's reads.
        func glared(_ symbol: LumaImage) throws -> (LumaImage, [Detection]) {
            let end = Int(try #require(try read(symbol).first).corners.topRight.x) - 20
            var page = Scene.page(width: 640, height: 480, [(symbol, x: 300, y: 240, degrees: 0)])
            for y in 0..<page.height {
                for x in (end + 12)..<page.width { page[x, y] = UInt8(clamping: Int(page[x, y]) + (250 - Int(page[x, y])) * 2 / 3) }
            }
            var decoder = FrameDecoder(formats: BarcodeFormats([.ean13]))
            decoder.extraPassBudgetMilliseconds = 0
            return (page, try decoder.decode(Frame.yuyv(page)).detections)
        }
        let (page, broken) = try glared(try AddOnScene.brokenAddOn(.ean13, "4006381333931+51299", module: 3))
        #expect(broken.map(\.text) == ["4006381333931"] && broken.allSatisfy(\.addOnBarsBeside), "\(broken)")
        // With the code's threshold alone its bars are not seen.
        let code = try #require(broken.first)
        let seen = page.withView { luma in
            AddOnBars.lines(along: code, modules: 95, width: luma.width, height: luma.height, luma: luma.pixelOrWhite) { lines in
                lines.compactMap { line in line.codeThreshold.map { line.sight(threshold: $0) } }
            }
        }
        #expect(seen?.filter { $0 == .shown }.count ?? 0 < 2, "\(seen ?? [])")
        let (_, plain) = try glared(Scene.symbol(.ean13, "4006381333931", module: 3))
        #expect(plain.map(\.text) == ["4006381333931"] && !plain.contains(where: \.addOnBarsBeside), "\(plain)")
    }

    /// A code turned by 26° is read by a whole-frame band (a horizontal scan line across it, which comes first
    /// and gives the merged read its outline) and by its located band: the add-on was probed along the horizontal
    /// line, found nowhere, and the code scanned without it (the till's #25). The probe now follows the outline
    /// of the read with the most scan lines.
    @Test func aMergedReadIsProbedAlongItsBestReadsOutline() throws {
        let page = Scene.page(
            width: 640, height: 480, [(try AddOnScene.brokenAddOn(.ean13, "4006381333931+51299", module: 3), x: 320, y: 240, degrees: 26)])
        var frameDecoder = FrameDecoder(formats: BarcodeFormats([.ean13]))
        frameDecoder.extraPassBudgetMilliseconds = 0
        let merged = try #require(try frameDecoder.decode(Frame.yuyv(page)).detections.first)
        #expect(merged.text == "4006381333931" && merged.addOnBarsBeside, "\(merged)")

        let region = Scene.full(page)
        let found = page.withView { LinearLocator().find(in: $0, region: region) }
        let bands = LinearLocator.passes(for: found, region: region, formats: BarcodeFormats([.ean13]), role: .locatedLinear, label: "band")
        let band = try #require(ZXingDecoder(isolated: false).decode(page, passes: bands).detections.first)
        var line = band
        let c = band.corners.center
        line.corners = Quadrilateral(
            topLeft: Point(c.x - 160, c.y), topRight: Point(c.x + 160, c.y), bottomRight: Point(c.x + 160, c.y + 7),
            bottomLeft: Point(c.x - 160, c.y + 7))
        line.lineCount = 2
        let mark = { (raw: [Detection]) in
            page.withView { AddOnBars.mark([line], raw: raw, in: $0) }
        }
        #expect(mark([]).map(\.addOnBarsBeside) == [false], "along the scan line across the bars: nothing beside")
        #expect(mark([line, band]).map(\.addOnBarsBeside) == [true])
        #expect(mark([line, band]).map(\.corners) == [line.corners], "the read keeps its outline")
    }

    /// A code brought in end first: its add-on, if it has one, is still beyond the frame's edge. The probe says
    /// so (nothing can be told), not that there is none; the same code in the middle of the frame shows none.
    @Test func aCodeWhoseAddOnWouldLieBeyondTheFramesEdgeSaysSo() throws {
        let symbol = Scene.symbol(.ean13, "4006381333931", module: 3)
        let inMiddle = try read(symbol)
        #expect(inMiddle.map(\.text) == ["4006381333931"] && !inMiddle.contains(where: \.addOnBeyondEdge), "\(inMiddle)")
        // Its end guard 8 modules from the right edge: a quiet zone in view, an add-on's gap and bars (about 30
        // modules more) not.
        let end = try #require(inMiddle.first).corners.topRight.x - 320
        let page = Scene.page(width: 640, height: 480, [(symbol, x: 640 - 24 - end, y: 240, degrees: 0)])
        var decoder = FrameDecoder(formats: BarcodeFormats([.ean13]))
        decoder.extraPassBudgetMilliseconds = 0
        let atEdge = try decoder.decode(Frame.yuyv(page)).detections
        #expect(atEdge.map(\.text) == ["4006381333931"], "\(atEdge)")
        #expect(atEdge.allSatisfy { $0.addOnBeyondEdge && !$0.addOnBarsBeside }, "\(atEdge)")
        // Bars after it, in view: bars beside, not the edge.
        let broken = try read(AddOnScene.brokenAddOn(.ean13, "4006381333931+51299", module: 3))
        #expect(broken.allSatisfy { $0.addOnBarsBeside && !$0.addOnBeyondEdge }, "\(broken)")
    }

    @Test func aCodeWithoutAnAddOnOrWithItReadHasNoneBeside() throws {
        let plain = try read(Scene.symbol(.ean13, "4006381333931", module: 3))
        #expect(plain.map(\.text) == ["4006381333931"] && !plain.contains(where: \.addOnBarsBeside), "\(plain)")
        let priced = try read(Scene.symbol(.ean13, "4006381333931+51299", module: 3))
        #expect(priced.map(\.text) == ["400638133393151299"] && !priced.contains(where: \.addOnBarsBeside), "\(priced)")
        // A second code to its right is no add-on: a wide gap, bars of a full symbol's pitch beyond.
        let page = Scene.page(
            width: 800, height: 480,
            [
                (Scene.symbol(.ean13, "4006381333931", module: 2), x: 200, y: 240, degrees: 0),
                (Scene.symbol(.qrCode, "next", module: 4), x: 560, y: 240, degrees: 0)
            ])
        var decoder = FrameDecoder(formats: BarcodeFormats([.ean13, .qrCode]))
        decoder.extraPassBudgetMilliseconds = 0
        let beside = try decoder.decode(Frame.yuyv(page)).detections.filter { $0.format == .ean13 }
        #expect(beside.map(\.text) == ["4006381333931"] && !beside.contains(where: \.addOnBarsBeside), "\(beside)")
    }
}
