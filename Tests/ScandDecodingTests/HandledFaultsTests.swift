import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

/// zxing-cpp 1.4's faults that scand used to work around, now handled by zxing-cpp 3.1 itself, and the
/// one that is left (light-on-dark linear codes and PDF417), on generated images.
@Suite struct HandledFaultsTests {
    let decoder = ZXingDecoder(isolated: true)

    @Test func zxingsDefaultsReadA720pEANWithNoFault() throws {
        // zxing 1.4's defaults aborted here (Result.cpp: lineCount() == 1, its pyramid merging linear reads).
        let image = Scene.page([(Scene.symbol(.ean13, "4006381333931", module: 3), x: 640, y: 360, degrees: 0)])
        let plain = decoder.decode(image, passes: [Scene.defaultHintsPass(image)])
        #expect(plain.failures.isEmpty)
        #expect(plain.detections.map(\.text) == ["4006381333931"])
        #expect(StillImageDecoder(decoder: decoder).decode(image).detections.map(\.text) == ["4006381333931"])
    }

    @Test(arguments: [BarcodeFormat.qrCode, .dataMatrix, .aztec, .pdf417, .code128, .ean13])
    func invertedCodesAreRead(_ format: BarcodeFormat) throws {
        let text = try #require(Scene.samplePayloads[format])
        let image = Scene.page(
            width: 800, height: 600, background: 20,
            [(Scene.symbol(format, text, module: 4).inverted(), x: 400, y: 300, degrees: 0)])
        let plain = decoder.decode(image, passes: [Scene.plainPass(image, BarcodeFormats(format))])
        #expect(plain.detections.isEmpty, "a pass without inversion should not read inverted \(format.name)")
        let report = StillImageDecoder(formats: BarcodeFormats(format), decoder: decoder).decode(image)
        let hit = try #require(report.detections.first)
        #expect(hit.text == text)
        #expect(hit.inverted)
        #expect(report.detections.count == 1)
    }

    @Test func zxingsOwnInversionLeavesOutLinearCodesAndPDF417() throws {
        // Why the still strategy keeps an inverted pass for these formats (StillImageDecoder.notSelfInverting).
        for format in [BarcodeFormat.pdf417, .code128, .ean13, .qrCode] {
            let text = try #require(Scene.samplePayloads[format])
            let image = Scene.page(
                width: 800, height: 600, background: 20,
                [(Scene.symbol(format, text, module: 4).inverted(), x: 400, y: 300, degrees: 0)])
            var own = Scene.plainPass(image, BarcodeFormats(format))
            own.tryInvert = true
            let read = !decoder.decode(image, passes: [own]).detections.isEmpty
            #expect(read == !StillImageDecoder.notSelfInverting.contains(format), "\(format.name)")
        }
    }

    @Test(arguments: [BarcodeFormat.qrCode, .dataMatrix])
    func mirroredCodesAreReadAndFlagged(_ format: BarcodeFormat) throws {
        let text = try #require(Scene.samplePayloads[format])
        let image = Scene.page(width: 800, height: 600, [(Scene.symbol(format, text, module: 5).mirrored(), x: 400, y: 300, degrees: 0)])
        let report = StillImageDecoder(formats: BarcodeFormats(format), decoder: decoder).decode(image)
        let hit = try #require(report.detections.first { $0.text == text })
        #expect(hit.mirrored)
        #expect(report.detections.count == 1)
        #expect(hit.corners.center.distance(to: Point(400, 300)) < 20)
    }

    @Test(arguments: [BarcodeFormat.dataMatrix, .aztec])
    func codesInCornersAreReadByOnePass(_ format: BarcodeFormat) throws {
        // zxing 1.4's DataMatrix and Aztec detectors looked at the image centre only; 3.1's find them anywhere.
        let text = try #require(Scene.samplePayloads[format])
        let sym = Scene.symbol(format, text, module: 4)
        let x = Double(sym.width) / 2 + 30, y = 720 - Double(sym.height) / 2 - 30
        let image = Scene.page([(sym, x: x, y: y, degrees: 0)])
        let plain = decoder.decode(image, passes: [Scene.plainPass(image, BarcodeFormats(format))])
        let hit = try #require(plain.detections.first)
        #expect(hit.text == text)
        #expect(hit.corners.center.distance(to: Point(x, y)) < 10)
    }
}
