import Testing
import ScandCore
@testable import ScandImageIO

@Suite struct AnnotatorTests {
    @Test func outlinesInGreenAndLabels() {
        let canvas = RGBImage(LumaImage(width: 200, height: 200, fill: 255))
        let d = Detection(
            format: .qrCode, text: "hello\u{1b}[0m", bytes: [],
            corners: Quadrilateral([Point(50, 50), Point(150, 50), Point(150, 120), Point(50, 120)]))
        let out = Annotator(lineWidth: 2, fontScale: 1).annotate(canvas, [d])
        #expect(out[100, 50] == Annotator.green)
        #expect(out[150, 80] == Annotator.green)
        #expect(out[100, 85] == (255, 255, 255))
        // The label sits below the outline: a dark box with green glyphs.
        let labelRows = (123..<140).flatMap { y in (50..<150).map { out[$0, y] } }
        #expect(labelRows.contains { $0 == (0, 0, 0) })
        #expect(labelRows.contains { $0 == Annotator.green })
        #expect(Annotator.label(for: d) == "QRCode: hello?[0m")
    }
}
