import Testing
import ScandCore
@testable import ScandDecoding

@Suite struct StillImageDecoderTests {
    @Test func regionOfInterestLimitsTheSearchAndKeepsFullFrameCorners() throws {
        let image = Scene.page(width: 1000, height: 400, [
            (Scene.symbol(.qrCode, "outside", module: 4), x: 200, y: 200, degrees: 0),
            (Scene.symbol(.qrCode, "inside", module: 4), x: 750, y: 200, degrees: 0),
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

    @Test func centredCropsPutEveryPointNearSomeCentre() {
        let region = PixelRect(x: 10, y: 20, width: 1280, height: 720)
        let crops = StillImageStrategy.centredCrops(of: region, side: 180)
        #expect(crops.allSatisfy { $0.width == 180 && $0.height == 180 && $0.intersection(region) == $0 })
        // Any point at least half a crop from the edges is within a third of a crop (per axis) of a centre.
        for x in stride(from: 100, through: 1190, by: 37) {
            for y in stride(from: 110, through: 650, by: 29) {
                let near = crops.contains { abs($0.x + 90 - x) <= 30 && abs($0.y + 90 - y) <= 30 }
                #expect(near, "(\(x), \(y))")
            }
        }
        #expect(StillImageStrategy.centredCrops(of: region, side: 20).isEmpty)
    }

    @Test func passesOnlyAskForRequestedFormats() {
        let passes = StillImageStrategy(formats: BarcodeFormats(.ean13)).passes(region: PixelRect(x: 0, y: 0, width: 10, height: 10))
        #expect(passes.allSatisfy { $0.formats == BarcodeFormats(.ean13) })
        #expect(passes.map(\.label) == ["linear", "linear inverted"])
        #expect(passes.allSatisfy { !$0.tryDownscale })
    }
}
