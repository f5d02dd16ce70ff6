import Testing
import ScandCore
@testable import ScandDecoding

/// The forked decoder: a pass that aborts, segfaults or hangs costs that pass only.
@Suite struct IsolationTests {
    func threeCodePage() -> (LumaImage, [DecodePass]) {
        let image = Scene.page(width: 900, height: 300, [
            (Scene.symbol(.qrCode, "left", module: 4), x: 150, y: 150, degrees: 0),
            (Scene.symbol(.qrCode, "middle", module: 4), x: 450, y: 150, degrees: 0),
            (Scene.symbol(.qrCode, "right", module: 4), x: 750, y: 150, degrees: 0),
        ])
        let passes = (0..<3).map { i in
            DecodePass(label: "third \(i)", crop: PixelRect(x: 300 * i, y: 0, width: 300, height: 300), formats: BarcodeFormats(.qrCode))
        }
        return (image, passes)
    }

    @Test(arguments: [(DecoderFault.abort, PassFailure.Kind.crashed), (.segfault, .crashed), (.hang, .timeout)])
    func faultInOnePassKeepsTheOthers(_ fault: DecoderFault, _ kind: PassFailure.Kind) {
        var (image, passes) = threeCodePage()
        passes[1].injectedFault = fault
        let report = ZXingDecoder(isolated: true, passTimeoutMilliseconds: 1500).decode(image, passes: passes)
        #expect(Set(report.detections.map(\.text)) == ["left", "right"])
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.pass == "third 1")
        #expect(report.failures.first?.kind == kind)
    }

    @Test func fallbackPassesRecoverACrashedPass() {
        let (image, passes) = threeCodePage()
        var crashing = passes[1]
        crashing.injectedFault = .abort
        var rescue = passes[1]
        rescue.label = "rescue"
        var doomed = rescue
        doomed.label = "doomed"
        doomed.injectedFault = .segfault
        crashing.fallbacks = [doomed, rescue]
        // The first pass aborts; its fallbacks run next: one crashes too, the other finds the code.
        let report = ZXingDecoder(isolated: true).decode(image, passes: [crashing])
        #expect(report.failures.map(\.pass) == ["third 1", "doomed"])
        #expect(report.detections.map(\.text) == ["middle"])
        #expect(report.passesRun == 3)
    }

    @Test func inProcessAndIsolatedAgree() {
        let (image, passes) = threeCodePage()
        let a = ZXingDecoder(isolated: false).decode(image, passes: passes)
        let b = ZXingDecoder(isolated: true).decode(image, passes: passes)
        #expect(a.detections == b.detections)
        #expect(a.detections.count == 3)
    }

    @Test func badGeometryNeverReachesTheLibrary() throws {
        let bytes = [UInt8](repeating: 255, count: 100)
        let pass = DecodePass(label: "x", crop: PixelRect(x: 0, y: 0, width: 10, height: 10), formats: .all)
        try bytes.withUnsafeBytes { raw in
            #expect(throws: ImageGeometryError.self) {
                try ZXingDecoder().decode(buffer: raw, width: 20, height: 10, rowStride: 20, pixelStride: 1, passes: [pass])
            }
            #expect(throws: ImageGeometryError.self) {
                try ZXingDecoder().decode(buffer: raw, width: 10, height: 10, rowStride: 5, pixelStride: 1, passes: [pass])
            }
            var outside = pass
            outside.crop = PixelRect(x: 5, y: 5, width: 10, height: 10)
            let report = try ZXingDecoder().decode(buffer: raw, width: 10, height: 10, rowStride: 10, pixelStride: 1, passes: [outside])
            #expect(report.failures.first?.kind == .badArgument)
        }
    }

    @Test func readsTheLumaOfAYUYVFrameInPlace() throws {
        let luma = Scene.page(width: 320, height: 240, [(Scene.symbol(.qrCode, "yuyv", module: 3), x: 160, y: 120, degrees: 0)])
        var yuyv = [UInt8](repeating: 128, count: 320 * 240 * 2)
        for i in 0..<luma.pixels.count { yuyv[2 * i] = luma.pixels[i] }
        let pass = DecodePass(label: "yuyv", crop: Scene.full(luma), formats: BarcodeFormats(.qrCode))
        let report = try yuyv.withUnsafeBytes {
            try ZXingDecoder().decode(buffer: $0, width: 320, height: 240, rowStride: 640, pixelStride: 2, passes: [pass])
        }
        #expect(report.detections.map(\.text) == ["yuyv"])
    }
}
