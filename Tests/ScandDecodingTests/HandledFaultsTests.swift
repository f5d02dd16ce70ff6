import Testing
import ScandCore
@testable import ScandDecoding

/// Each known fault of zxing-cpp 1.4.0 is shown failing with a plain read and handled by scand's
/// still-image strategy, on generated images.
@Suite struct HandledFaultsTests {
    let decoder = ZXingDecoder(isolated: true)

    @Test func downscaleAssertCostsOnePassNotTheProcess() throws {
        // A 720p frame with one EAN-13: zxing's default hints abort in Result::operator== (lineCount() == 1).
        let image = Scene.page([(Scene.symbol(.ean13, "4006381333931", module: 3), x: 640, y: 360, degrees: 0)])
        let plain = decoder.decode(image, passes: [Scene.defaultHintsPass(image)])
        let failure = try #require(plain.failures.first)
        #expect(failure.kind == .crashed && failure.signal == 6)
        #expect(failure.message.contains("lineCount"))

        let report = StillImageDecoder(decoder: decoder).decode(image)
        #expect(report.detections.map(\.text) == ["4006381333931"])
        #expect(report.failures.isEmpty, "scand's passes avoid the assert: \(report.failures)")
    }

    @Test(arguments: [BarcodeFormat.qrCode, .dataMatrix, .aztec, .pdf417, .code128, .ean13])
    func invertedCodesAreRead(_ format: BarcodeFormat) throws {
        let text = try #require(Scene.samplePayloads[format])
        let image = Scene.page(width: 800, height: 600, background: 20,
                               [(Scene.symbol(format, text, module: 4).inverted(), x: 400, y: 300, degrees: 0)])
        let plain = decoder.decode(image, passes: [Scene.plainPass(image, BarcodeFormats(format))])
        #expect(plain.detections.isEmpty, "zxing 1.4 should not read inverted \(format.name)")
        let report = StillImageDecoder(formats: BarcodeFormats(format), decoder: decoder).decode(image)
        let hit = try #require(report.detections.first)
        #expect(hit.text == text)
        #expect(hit.inverted)
    }

    // zxing 1.4 reads clean generated mirrored QR and DataMatrix by itself; this checks that scand reports
    // them once, flagged as mirrored, with corners in the original image.
    @Test(arguments: [BarcodeFormat.qrCode, .dataMatrix])
    func mirroredCodesAreReadAndFlagged(_ format: BarcodeFormat) throws {
        let text = try #require(Scene.samplePayloads[format])
        let image = Scene.page(width: 800, height: 600, [(Scene.symbol(format, text, module: 5).mirrored(), x: 400, y: 300, degrees: 0)])
        let report = StillImageDecoder(formats: BarcodeFormats(format), decoder: decoder).decode(image)
        let hit = try #require(report.detections.first { $0.text == text })
        #expect(hit.mirrored)
        #expect(report.detections.count == 1, "the plain and the mirrored pass find one symbol")
        // Corners come back in the original image: around where the symbol was pasted.
        #expect(hit.corners.center.distance(to: Point(400, 300)) < 20)
    }

    @Test(arguments: [BarcodeFormat.dataMatrix, .aztec])
    func centreBoundDetectorsFindCodesInCorners(_ format: BarcodeFormat) throws {
        let text = try #require(Scene.samplePayloads[format])
        let sym = Scene.symbol(format, text, module: 4)
        let x = Double(sym.width) / 2 + 30, y = 720 - Double(sym.height) / 2 - 30
        let image = Scene.page([(sym, x: x, y: y, degrees: 0)])
        let plain = decoder.decode(image, passes: [Scene.plainPass(image, BarcodeFormats(format), downscale: true)])
        #expect(plain.detections.isEmpty, "zxing 1.4 should miss \(format.name) in a corner")
        let report = StillImageDecoder(formats: BarcodeFormats(format), decoder: decoder).decode(image)
        let hit = try #require(report.detections.first)
        #expect(hit.text == text)
        #expect(hit.corners.center.distance(to: Point(x, y)) < 10)
    }
}
