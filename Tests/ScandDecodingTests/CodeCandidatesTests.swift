import Foundation
import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

/// Patches that look like matrix codes: where they are, at what angle, and the upright crops read from them.
@Suite struct CodeCandidatesTests {
    func find(_ image: LumaImage) -> [CodeCandidates.Candidate] {
        image.withView { CodeCandidates().find(in: $0, region: Scene.full(image)) }
    }

    @Test(arguments: [-31.0, -12, 0, 7, 19, 40])
    func findsATiltedCodeWhereItIsAndItsAngle(degrees: Double) throws {
        let image = Scene.page(width: 960, height: 540, [(Scene.symbol(.dataMatrix, "where", module: 4), x: 700, y: 150, degrees: degrees)])
        let c = try #require(find(image).first)
        #expect(c.bounds.contains(Point(700, 150)))
        #expect(c.bounds.width < 200 && c.bounds.height < 200, "\(c.bounds)")
        // Angles are modulo 90°: 40° and -50° are the same grid.
        var error = abs(c.degrees - degrees).truncatingRemainder(dividingBy: 90)
        error = min(error, 90 - error)
        #expect(error < 1.5, "found \(c.degrees)° for \(degrees)°")
        #expect(c.coherence > 0.3)
    }

    /// The SIMD lanes sum what the sample-by-sample loop sums, block by block, wherever the region lies (an
    /// odd number of blocks leaves one to the loop) and at the block sizes that take the loop only.
    @Test(arguments: [(640, 480, 0, 0), (1280, 720, 0, 0), (1280, 720, 37, 11), (1920, 1080, 3, 5), (333, 217, 1, 2)])
    func blockEnergiesInLanesAreTheSampleLoops(width: Int, height: Int, x: Int, y: Int) throws {
        var page = LumaImage(width: width, height: height, fill: 0)
        var rng = UInt64(width * 7 + x)
        for i in page.pixels.indices {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            page.pixels[i] = UInt8(truncatingIfNeeded: rng >> 33)
        }
        let r = PixelRect(x: x, y: y, width: width - x - 5, height: height - y - 3)
        let block = max(8, r.width / 160 / 2 * 2), step = max(2, block / 4)
        let cols = (r.width - 2) / block, rows = (r.height - 2) / block
        let (lanes, loop) = try page.withView { v in
            let base = try #require(v.base)
            return (
                CodeCandidates.blockEnergies(v, base: base, region: r, block: block, step: step, cols: cols, rows: rows),
                CodeCandidates.blockEnergies(v, base: base, region: r, block: block, step: step, cols: cols, rows: rows, vectorized: false)
            )
        }
        #expect(lanes.count == cols * rows && lanes.contains { $0 > 0 })
        #expect(lanes == loop)
    }

    @Test func aPlainNoisyPageHasNoCandidates() {
        var page = LumaImage(width: 640, height: 480, fill: 200)
        var rng = 99 as UInt32
        for i in page.pixels.indices {  // sensor noise of ±8 levels
            rng = rng &* 1_103_515_245 &+ 12345
            page.pixels[i] = UInt8(192 + Int(rng >> 16) % 17)
        }
        #expect(find(page).isEmpty)
    }

    @Test func upToTheLimitLargestFirst() {
        var items: [(LumaImage, x: Double, y: Double, degrees: Double)] = []
        for i in 0..<8 { items.append((Scene.symbol(.dataMatrix, "many \(i)", module: 2 + i % 3), x: 100 + Double(i) * 140, y: 300, degrees: 0)) }
        var finder = CodeCandidates()
        finder.limit = 3
        let image = Scene.page(width: 1280, height: 600, items)
        let found = image.withView { finder.find(in: $0, region: Scene.full(image)) }
        #expect(found.count == 3)
        let areas = found.map { $0.bounds.width * $0.bounds.height }
        #expect(areas == areas.sorted(by: >))
    }

    @Test func cornersOfAnUprightCropMapBackOntoTheTiltedCode() throws {
        let image = Scene.page(width: 800, height: 600, [(Scene.symbol(.pdf417, "mapped back", module: 3), x: 420, y: 320, degrees: 17)])
        let passes = CodeCandidates.passes(for: find(image), region: Scene.full(image), formats: BarcodeFormats(.pdf417), label: "candidate")
        #expect(passes.contains { abs($0.rotationDegrees - 17) < 1.5 })
        let report = ZXingDecoder(isolated: false).decode(image, passes: passes)
        let hit = try #require(report.detections.first { $0.text == "mapped back" })
        #expect(hit.corners.center.distance(to: Point(420, 320)) < 6, "\(hit.corners)")
        // The symbol's top edge runs at the code's angle in the image, not upright as in the pass.
        let edge = hit.corners.topRight - hit.corners.topLeft
        let angle = atan2(edge.y, edge.x) * 180 / .pi
        #expect(abs(angle - 17) < 3, "\(angle)°")
        #expect(
            ZXingDecoder(isolated: false).decode(image, passes: [Scene.plainPass(image, BarcodeFormats(.pdf417))]).detections.isEmpty,
            "zxing alone misses this PDF417")
    }

    @Test func theShimRefusesRotationWithAMirrorAndOverLargeUpscales() {
        let image = LumaImage(width: 100, height: 100, fill: 200)
        var p = DecodePass(label: "both", crop: Scene.full(image), formats: .all)
        p.rotationDegrees = 10
        p.mirror = true
        #expect(ZXingDecoder(isolated: false).decode(image, passes: [p]).failures.map(\.kind) == [.badArgument])
        p.mirror = false
        p.rotationDegrees = 95
        #expect(ZXingDecoder(isolated: false).decode(image, passes: [p]).failures.map(\.kind) == [.badArgument])
        p.rotationDegrees = 0
        p.upscale = 5
        #expect(ZXingDecoder(isolated: false).decode(image, passes: [p]).failures.map(\.kind) == [.badArgument])
        let large = LumaImage(width: 2100, height: 2100, fill: 200)
        var big = DecodePass(label: "big", crop: Scene.full(large), formats: .all)
        big.upscale = 2
        #expect(ZXingDecoder(isolated: false).decode(large, passes: [big]).failures.map(\.message) == ["upscaled crop over 16 megapixels"])
    }

    @Test func theLiveDecoderReadsTiltedOffCentreMatrixCodesInTheFirstFrame() throws {
        let page = Scene.page(
            width: 1280, height: 720,
            [
                (Scene.symbol(.dataMatrix, "dm off centre", module: 4), x: 1080, y: 560, degrees: 14),
                (Scene.symbol(.aztec, "aztec tilted", module: 4), x: 220, y: 180, degrees: -11),
                (Scene.symbol(.pdf417, "pdf417 tilted", module: 3), x: 640, y: 420, degrees: 18)
            ])
        var decoder = FrameDecoder()
        decoder.extraPassBudgetMilliseconds = 0  // the cheap passes and the upright crops only
        let texts = Set(try decoder.decode(Frame.yuyv(page)).detections.map(\.text))
        #expect(texts == ["dm off centre", "aztec tilted", "pdf417 tilted"])
        let plain = ZXingDecoder(isolated: false).decode(page, passes: [.zxingDefaults(width: 1280, height: 720)])
        #expect(!Set(plain.detections.map(\.text)).isSuperset(of: texts), "zxing's defaults miss some of them: \(plain.detections.map(\.text))")
    }
}

/// The live decoder spends upright crops on patches only while they may hold a code.
@Suite struct CandidateCropBudgetTests {
    @Test func aPatchThatReadsNothingRestsThenIsTriedAgain() throws {
        // A checkerboard is busy and square like a code, but holds none.
        var page = LumaImage(width: 640, height: 480, fill: 230)
        for y in 200..<280 { for x in 300..<380 where ((x / 4) + (y / 4)) % 2 == 0 { page[x, y] = 30 } }
        var decoder = FrameDecoder(formats: BarcodeFormats(.dataMatrix))
        decoder.extraPassBudgetMilliseconds = 0
        var crops: [Int] = []
        for _ in 0..<(FrameDecoder.fruitlessRest + 3) {
            _ = try decoder.decode(Frame.yuyv(page))
            crops.append(decoder.lastPasses.filter { $0.role == .candidateCrop }.count)
        }
        // Tried in the first frame, left alone while it rests, tried again once the rest is over.
        #expect(crops.indices.filter { crops[$0] > 0 } == [0, FrameDecoder.fruitlessRest], "\(crops)")
    }

    /// Whether each frame ran the whole-frame passes, and what it read.
    static func wholeFrames(_ pages: [LumaImage], formats: BarcodeFormats) throws -> (whole: [Bool], read: [[String]]) {
        var decoder = FrameDecoder(formats: formats)
        decoder.extraPassBudgetMilliseconds = 0
        var whole: [Bool] = [], read: [[String]] = []
        for page in pages {
            read.append(try decoder.decode(Frame.yuyv(page)).detections.map(\.text))
            whole.append(decoder.lastPasses.contains { $0.role == .cheapMatrix || $0.role == .linearBand })
        }
        return (whole, read)
    }

    @Test func aCodeItsCropReadsNeedsTheWholeFramePassesOnlyAsTheFallback() throws {
        let page = Scene.page(width: 640, height: 480, [(Scene.symbol(.dataMatrix, "cropped", module: 4), x: 320, y: 240, degrees: 0)])
        let (whole, read) = try Self.wholeFrames(Array(repeating: page, count: 6), formats: BarcodeFormats(.dataMatrix))
        #expect(read == Array(repeating: ["cropped"], count: 6))
        #expect(whole == [true, false, false, false, true, false], "one frame in \(FrameDecoder().wholeFrameEvery)")
    }

    /// A QR code has no upright crop (`CodeCandidates.formats`): once a whole-frame pass reads it, they run on
    /// every frame while it is in view, and rest again when it has gone.
    @Test func aCodeOnlyTheWholeFramePassesReadKeepsThemEveryFrame() throws {
        let empty = LumaImage(width: 640, height: 480, fill: 230)
        let page = Scene.page(width: 640, height: 480, [(Scene.symbol(.qrCode, "whole", module: 4), x: 320, y: 240, degrees: 0)])
        let (whole, read) = try Self.wholeFrames([empty, page, page, page, page, page, page, empty, empty, empty], formats: BarcodeFormats(.qrCode))
        // Shown at frame 1: read at frame 4, the fallback's turn, and from then on every frame.
        #expect(read == [[], [], [], [], ["whole"], ["whole"], ["whole"], [], [], []])
        // Frame 7 finds it gone; frame 8 is the fallback's turn again.
        #expect(whole == [true, false, false, false, true, true, true, true, true, false])
    }
}
