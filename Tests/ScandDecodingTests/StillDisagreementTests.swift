import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

/// Two reads of different numbers on one code's bars, some way apart across them (as zxing read a photo's
/// EAN-13 on two groups of scan lines), are one code read twice, not two codes side by side.
@Suite struct StillDisagreementTests {
    static let image = Scene.page(
        width: 800, height: 600,
        [
            (Scene.symbol(.ean13, "5030159003930", module: 2), x: 400, y: 150, degrees: 0),
            (Scene.symbol(.ean13, "4006381333931", module: 2), x: 400, y: 450, degrees: 0)
        ])

    /// The scene's read of `text`, and the same read moved `dy` pixels across its bars with another number.
    func reads(_ text: String, lines: Int, other: String, otherLines: Int, dy: Double) throws -> (Detection, Detection) {
        var first = try #require(
            ZXingDecoder(isolated: false).decode(Self.image, passes: [StillImageDecoder().firstPass(region: Scene.full(Self.image))]).detections
                .first { $0.text == text })
        first.lineCount = lines
        // One group of scan lines, 6 px across, near the top of the bars.
        let q = first.corners, top = min(q.topLeft.y, q.topRight.y)
        first.corners = Quadrilateral([
            Point(q.topLeft.x, top + 4), Point(q.topRight.x, top + 4), Point(q.topRight.x, top + 10), Point(q.topLeft.x, top + 10)
        ])
        var second = first
        second.text = other
        second.bytes = Array(other.utf8)
        second.lineCount = otherLines
        second.corners = Quadrilateral(first.corners.corners.map { Point($0.x, $0.y + dy) })
        return (first, second)
    }

    @Test func readsApartAcrossOneCodesBarsDisagree() throws {
        let (right, wrong) = try reads("5030159003930", lines: 7, other: "7034759003930", otherLines: 5, dy: 30)
        #expect(!DetectionMerger().merge([right, wrong]).isEmpty)
        #expect(StillDisagreement.disputes([right, wrong], in: Self.image).count == 1)
        let found = [right, wrong].map { DecodeReport.Found(detection: $0, role: .still(.defaults)) }
        // Seven lines against five settle nothing: both go.
        #expect(StillDisagreement.resolve(found, raw: found, in: Self.image).isEmpty)
        // A second look that read the code on many more lines settles it.
        var look = right
        look.lineCount = 40
        let raw = found + [DecodeReport.Found(detection: look, role: .still(.secondLook))]
        #expect(StillDisagreement.resolve(found, raw: raw, in: Self.image).map(\.detection.text) == ["5030159003930"])
    }

    /// Live, a frame has a handful of lines behind either number (zxing-cpp's EAN-13 sample 35.png held before
    /// the camera: a wrong number on five lines near one end of the bars, the right one on seven over the rest,
    /// on every frame alike): the number read over clearly more of the bars' height, on no fewer lines, stays.
    @Test func liveTheNumberReadOverMoreOfTheBarsWins() throws {
        var (right, wrong) = try reads("5030159003930", lines: 7, other: "7034759003930", otherLines: 5, dy: 30)
        let q = right.corners
        let found = { (a: Detection, b: Detection) in [a, b].map { DecodeReport.Found(detection: $0, role: .trackedCrop(0)) } }
        let settled = { (a: Detection, b: Detection) in
            StillDisagreement.settled([a, b], raw: found(a, b), image: { Self.image }).map(\.text)
        }
        // Both 6 px across: neither wins.
        #expect(settled(right, wrong).isEmpty)
        // The right number over 24 px of the bars, the wrong one over 6.
        right.corners = Quadrilateral([q.topLeft, q.topRight, Point(q.topRight.x, q.topRight.y + 18), Point(q.topLeft.x, q.topLeft.y + 18)])
        #expect(settled(right, wrong) == ["5030159003930"])
        // Over more of the bars but on fewer lines: not enough.
        wrong.lineCount = 8
        #expect(settled(right, wrong).isEmpty)
        // Twice the lines win as before.
        wrong.lineCount = 14
        #expect(settled(right, wrong) == ["7034759003930"])
    }

    @Test func twoCodesOneAboveTheOtherDoNotDisagree() throws {
        // The second read lies on the other code's bars, 300 px below.
        let (a, b) = try reads("5030159003930", lines: 7, other: "4006381333931", otherLines: 7, dy: 300)
        #expect(StillDisagreement.disputes([a, b], in: Self.image).isEmpty)
        let (c, d) = try reads("5030159003930", lines: 7, other: "4006381333931", otherLines: 7, dy: 150)
        #expect(StillDisagreement.disputes([c, d], in: Self.image).isEmpty, "blank paper between them")
    }

    @Test func profilesCorrelate() {
        let x = (0..<100).map { Double(($0 / 5) % 2) }
        #expect(StillDisagreement.correlation(x, x) > 0.99)
        #expect(StillDisagreement.correlation(x, x.map { 1 - $0 }) < StillDisagreement.alike)
        #expect(StillDisagreement.correlation(x, Array(repeating: 1, count: 100)) <= 0)
    }
}
