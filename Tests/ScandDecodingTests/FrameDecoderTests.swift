import Testing
import ScandCore
@testable import ScandDecoding

/// The live decoder's adaptive passes, on generated frames.
@Suite struct FrameDecoderTests {
    func frames(_ image: LumaImage) -> Frame { Frame.yuyv(image) }

    @Test func fiftyQRCodesInA1080pFrameAreAllFound() throws {
        var items: [(LumaImage, x: Double, y: Double, degrees: Double)] = []
        for i in 0..<50 {
            items.append((Scene.symbol(.qrCode, "qr \(i)", module: 3), x: 100 + Double(i % 10) * 190, y: 110 + Double(i / 10) * 210, degrees: 0))
        }
        let frame = frames(Scene.page(width: 1920, height: 1080, items))
        var decoder = FrameDecoder(formats: BarcodeFormats(.qrCode))
        decoder.extraPassBudgetMilliseconds = 0
        let result = try decoder.decode(frame)
        #expect(Set(result.detections.map(\.text)) == Set((0..<50).map { "qr \($0)" }))
        #expect(result.detections.count == 50)
    }

    @Test func expensivePassesFindWhatTheCheapOnesMissAndKeepFindingIt() throws {
        // An inverted QR code and a DataMatrix near a corner: the fast passes read neither.
        let page = Scene.page(width: 1280, height: 720, background: 235, [
            (Scene.symbol(.qrCode, "light on dark", module: 5).inverted(), x: 400, y: 360, degrees: 0),
            (Scene.symbol(.dataMatrix, "corner dm", module: 5), x: 1100, y: 560, degrees: 0),
        ])
        var cheapOnly = FrameDecoder()
        cheapOnly.extraPassBudgetMilliseconds = 0
        #expect(try cheapOnly.decode(frames(page)).detections.isEmpty, "the cheap passes alone read neither")
        var decoder = FrameDecoder()
        decoder.extraPassBudgetMilliseconds = .infinity
        var seen: [Set<String>] = []
        for _ in 0..<24 { seen.append(Set(try decoder.decode(frames(page)).detections.map(\.text))) }
        let firstInverted = try #require(seen.firstIndex { $0.contains("light on dark") })
        let firstCorner = try #require(seen.firstIndex { $0.contains("corner dm") }, "\(seen)")
        // Once found, a code stays found frame after frame (its pass keeps running).
        #expect(seen[firstInverted...].allSatisfy { $0.contains("light on dark") })
        #expect(seen[firstCorner...].allSatisfy { $0.contains("corner dm") })
    }

    @Test func noExpensivePassesOverBudget() throws {
        let page = Scene.page(width: 640, height: 480, [(Scene.symbol(.qrCode, "x", module: 4).inverted(), x: 320, y: 240, degrees: 0)])
        var decoder = FrameDecoder()
        decoder.extraPassBudgetMilliseconds = 0
        for _ in 0..<8 { #expect(try decoder.decode(frames(page)).detections.isEmpty) }
    }
}
