import Testing
import ScandCore
import ScandPayload
@testable import ScandDecoding
import ScandTestSupport

@Suite struct StillImageDecoderTests {
    @Test func regionOfInterestLimitsTheSearchAndKeepsFullFrameCorners() throws {
        let image = Scene.page(
            width: 1000, height: 400,
            [
                (Scene.symbol(.qrCode, "outside", module: 4), x: 200, y: 200, degrees: 0),
                (Scene.symbol(.qrCode, "inside", module: 4), x: 750, y: 200, degrees: 0)
            ])
        let roi = try NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let report = StillImageDecoder(decoder: ZXingDecoder()).decode(image, regionOfInterest: roi)
        #expect(report.detections.map(\.text) == ["inside"])
        let centre = try #require(report.detections.first).corners.center
        #expect(centre.distance(to: Point(750, 200)) < 5)
    }

    @Test func controlBytesInAPayloadArriveIntact() throws {
        let text = "ok\u{1b}[31mred\u{7}"
        let image = Scene.page(width: 400, height: 400, [(Scene.symbol(.code128, text, module: 2), x: 200, y: 200, degrees: 0)])
        let report = StillImageDecoder(formats: BarcodeFormats(.code128)).decode(image)
        #expect(report.detections.map(\.text) == [text])
    }

    @Test(arguments: [
        ("9780306406157+51299", BarcodeFormat.ean13, "978030640615751299", "51299"),
        ("036000291452+12", .upcA, "03600029145212", "12"),
        ("01234565+12", .upcE, "0123456512", "12")
    ])
    func eanAddOnsAreReadIntoTheText(_ written: String, _ format: BarcodeFormat, _ text: String, _ addOn: String) throws {
        let image = Scene.page(width: 800, height: 400, [(Scene.symbol(format, written, module: 3), x: 400, y: 200, degrees: 0)])
        let report = StillImageDecoder(formats: BarcodeFormats(format)).decode(image)
        let hit = try #require(report.detections.first)
        #expect(report.detections.count == 1, "\(report.detections.map(\.text))")
        #expect(hit.format == format && hit.text == text && hit.addOn == addOn)
        let value = PayloadParser.parse(hit)
        switch value {
        case .isbn(let book): #expect(book.addOn == addOn)
        case .product(let product): #expect(product.addOn == addOn)
        default: Issue.record("\(value)")
        }
    }

    /// Issue 45: `scand scan` holds EAN/UPC reads against their bars as the live decoder does: a number the bars
    /// contradict is dropped, an add-on they contradict is left off, and the right read stands.
    @Test func readsTheirBarsContradictAreLeftOut() throws {
        let text = "9780201379624"
        let symbol = try SymbolWriter.render(.ean13, text: text + "+52495", moduleSize: 3, quietZone: 12, barHeight: 40)
        var page = LumaImage(width: symbol.width + 40, height: symbol.height + 40, fill: 255)
        page.paste(symbol, x: 20, y: 20)
        let y = 20 + Double(symbol.height) / 2, x0 = 20 + 36.0
        let row = (0..<symbol.width).map { symbol[$0, symbol.height / 2] < 128 }
        let x1 = 20 + Double(try #require(row.lastIndex(of: true)) + 1)
        func found(_ t: String) -> DecodeReport.Found {
            let d = Detection(
                format: .ean13, text: t, bytes: Array(t.utf8),
                corners: Quadrilateral([Point(x0, y - 1), Point(x1, y - 1), Point(x1, y + 1), Point(x0, y + 1)]))
            return DecodeReport.Found(detection: d, role: .adHoc)
        }
        // One character of the main number changed, the check digit made valid: "9780201379624" → "9780201378624"
        // (its check digit 9780201378627).
        let kept = StillImageDecoder.heldAgainstTheirBars(
            [found(text + "52495"), found("9780201378627" + "52495"), found(text + "52485")], in: page
        ).map(\.detection.text)
        #expect(kept == [text + "52495", text], "\(kept)")
    }

    @Test func passesOnlyAskForRequestedFormats() {
        let region = PixelRect(x: 0, y: 0, width: 10, height: 10)
        let still = StillImageDecoder(formats: BarcodeFormats(.ean13))
        let first = still.firstPass(region: region)
        #expect(first.formats == BarcodeFormats(.ean13) && first.tryInvert && first.tryRotate && first.tryDownscale && first.eanAddOn == .read)
        let followUps = still.followUps(region: region, found: [])
        #expect(followUps.map(\.label) == ["still inverted", "still enlarged"])
        #expect(followUps.allSatisfy { $0.formats == BarcodeFormats(.ean13) })
        #expect(followUps[0].invert && followUps[1].upscale == 2)
        let large = still.followUps(region: PixelRect(x: 0, y: 0, width: 1920, height: 1080), found: [])
        #expect(large.map(\.label) == ["still inverted"], "a large image's bars are wide enough")
        let qr = Detection(
            format: .qrCode, text: "x", bytes: Array("x".utf8),
            corners: Quadrilateral([Point(0, 0), Point(5, 0), Point(5, 5), Point(0, 5)]))
        #expect(still.followUps(region: region, found: [qr]).map(\.label) == ["still inverted"], "enlarged only where nothing was read")
        let qrOnly = StillImageDecoder(formats: BarcodeFormats(.qrCode)).followUps(region: region, found: [])
        #expect(qrOnly.isEmpty, "zxing inverts QR codes itself")
    }
}
