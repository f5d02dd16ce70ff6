import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

/// Issue 30, 2: a code swiped across its bars within the exposure is smeared past reading; a located band with
/// the smear undone reads it (`LinearLocator.unsmeared`, the shim's `UndoRowSmear`).
@Suite struct UnsmearTests {
    static let text = "2284368540608"

    /// An EAN-13 of 2 px modules on a 640x240 page at `x`, smeared 7 px across its bars.
    static func swiped(at x: Int = 320) -> LumaImage {
        let code = try! SymbolWriter.render(.ean13, text: text, moduleSize: 2)
        return Scene.smeared(Scene.page(width: 640, height: 240, background: 225, centred: [(code, x: x, y: 120)]), length: 7)
    }

    @Test func aSmearedCodeReadsOnlyWithTheSmearUndone() {
        let image = Self.swiped()
        let decoder = ZXingDecoder(isolated: false)
        var plain = Scene.plainPass(image, .linear)
        plain.tryHarder = true
        #expect(decoder.decode(image, passes: [plain]).detections.isEmpty, "the smear leaves nothing zxing reads")
        var unsmeared = plain
        unsmeared.unsmear = 7
        unsmeared.binarizer = .fixedThreshold
        #expect(decoder.decode(image, passes: [unsmeared]).detections.map(\.text) == [Self.text])
    }

    @Test func theLocatedBandsOfASmearedCodeReadIt() {
        let image = Self.swiped()
        let region = Scene.full(image)
        let found = image.pixels.withUnsafeBytes {
            LinearLocator().find(in: $0, width: image.width, height: image.height, rowStride: image.width, pixelStride: 1, region: region)
        }
        let bands = LinearLocator.passes(for: found, region: region, formats: .linear, role: .locatedLinear, label: "band")
        #expect(bands.count == 1, "\(found)")
        let decoder = ZXingDecoder(isolated: false)
        #expect(decoder.decode(image, passes: bands).detections.isEmpty)
        let reads = decoder.decode(image, passes: bands.flatMap(LinearLocator.unsmeared)).found
        #expect(!reads.isEmpty && reads.allSatisfy { $0.detection.text == Self.text }, "\(reads.map(\.detection.text))")
    }

    @Test(arguments: [1, -2, 65])
    func anUnsmearOutOfRangeIsABadArgument(_ length: Int) {
        let image = LumaImage(width: 64, height: 64, fill: 200)
        var p = Scene.plainPass(image, .linear)
        p.unsmear = length
        #expect(ZXingDecoder(isolated: false).decode(image, passes: [p]).failures.map(\.message) == ["unsmear must be 0 or 2...64"])
    }

    /// The decoder's next frame, the code moved on, reads the band that read nothing unsmeared, as one scan line
    /// (its rows share one guess at the smear); a still scene's bands are not unsmeared, nor a first frame's.
    @Test func aBandThatReadNothingIsReadUnsmearedInTheNextFrameWhileTheSceneMoves() throws {
        var decoder = FrameDecoder(formats: .linear)
        decoder.extraPassBudgetMilliseconds = 0
        let first = try decoder.decode(Frame.yuyv(Self.swiped(at: 280)))
        #expect(first.detections.isEmpty && !decoder.lastPasses.contains { $0.role == .unsmearedLinear })
        let second = try decoder.decode(Frame.yuyv(Self.swiped(at: 330)))
        #expect(second.detections.map(\.text) == [Self.text])
        #expect(second.detections.allSatisfy { $0.lineCount <= 1 }, "\(second.detections.map(\.lineCount))")

        var still = FrameDecoder(formats: .linear)
        still.extraPassBudgetMilliseconds = 0
        still.sceneIsStill = true
        _ = try still.decode(Frame.yuyv(Self.swiped(at: 280)))
        #expect(try still.decode(Frame.yuyv(Self.swiped(at: 280))).detections.isEmpty)
        #expect(!still.lastPasses.contains { $0.role == .unsmearedLinear })
    }
}
