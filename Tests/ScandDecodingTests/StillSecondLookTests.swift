import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

/// A still's EAN/UPC or check-digitless read that only a resampled pass made is reported only with a second
/// opinion; EAN/UPC reads get a second look that reads their add-on.
@Suite struct StillSecondLookTests {
    func found(
        _ format: BarcodeFormat, _ text: String, _ role: DecodePass.Role, lines: Int = 2, across: Double = 4, at x: Double = 0
    )
        -> DecodeReport.Found
    {
        DecodeReport.Found(
            detection: Detection(
                format: format, text: text, bytes: Array(text.utf8),
                corners: Quadrilateral([Point(x, 0), Point(x + 190, 0), Point(x + 190, across), Point(x, across)]), lineCount: lines),
            role: role)
    }

    @Test func anEANReadOnlyEnlargedNeedsASecondOpinion() {
        let once = found(.ean13, "4006381333931", .still(.enlarged))
        #expect(StillSecondLook.confirmed([once]).isEmpty)
        #expect(StillSecondLook.confirmed([found(.ean13, "4006381333931", .still(.uprightLinear))]).isEmpty)
        // Another crop's read, its own scan lines spread over the bars, or zxing's defaults vouch for it.
        let crop = found(.ean13, "4006381333931", .still(.uprightLinear), at: 3)
        #expect(StillSecondLook.confirmed([once, crop]).count == 2)
        #expect(StillSecondLook.confirmed([found(.ean13, "4006381333931", .still(.enlarged), lines: 12, across: 30)]).count == 1)
        #expect(StillSecondLook.confirmed([found(.ean13, "4006381333931", .still(.defaults))]).count == 1)
        // The same read twice from one pass is one opinion; another main number is none.
        #expect(StillSecondLook.confirmed([once, once]).isEmpty)
        #expect(StillSecondLook.confirmed([once, found(.ean13, "4006381333948", .still(.defaults), at: 3)]).count == 1)
        // A check-digitless format's scan lines vouch for nothing (a striped surface reads alike on every line).
        #expect(StillSecondLook.confirmed([found(.codabar, "A123B", .still(.secondLook), lines: 40, across: 30)]).isEmpty)
    }

    @Test func anEANTiltedBesideItsAddOnIsReadWithIt() throws {
        let image = Scene.page(width: 900, height: 600, [(Scene.symbol(.ean13, "9780306406157+51299", module: 2), x: 450, y: 300, degrees: 18)])
        let report = StillImageDecoder(formats: BarcodeFormats(.ean13), decoder: ZXingDecoder(isolated: false)).decode(image)
        #expect(report.detections.map(\.text) == ["978030640615751299"])
    }

    @Test func aSecondLookTurnsByTheCodesAngleNotTheScanLines() throws {
        let image = Scene.page(width: 900, height: 600, [(Scene.symbol(.ean13, "4006381333931", module: 3), x: 450, y: 300, degrees: 15)])
        // A read along a horizontal scan line across the tilted code.
        let scan = Quadrilateral([Point(300, 300), Point(600, 300), Point(600, 304), Point(300, 304)])
        let bars = BarsSpan.measured(scan, in: image)
        #expect(abs(bars.degrees - 15) < 3, "\(bars.degrees)")
        let pass = try #require(
            bars.pass(lengths: 1.4, height: 120, upscale: 1, region: Scene.full(image), role: .still(.secondLook), formats: BarcodeFormats(.ean13)))
        #expect(abs(pass.rotationDegrees - 15) < 3)
        #expect(ZXingDecoder(isolated: false).decode(image, passes: [pass]).detections.map(\.text) == ["4006381333931"])
    }
}
