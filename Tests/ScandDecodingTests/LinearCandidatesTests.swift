import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

/// Tilted and small linear codes: read from crops turned upright around code-like patches, enlarged when
/// small, in stills and in a live scene held still.
@Suite struct LinearCandidatesTests {
    func candidates(_ image: LumaImage) -> [CodeCandidates.Candidate] {
        image.withView { CodeCandidates().find(in: $0, region: Scene.full(image)) }
    }

    @Test(arguments: [-35.0, 25, 40])
    func aTiltedEANIsReadFromItsUprightCrop(degrees: Double) throws {
        let image = Scene.page(width: 960, height: 540, [(Scene.symbol(.ean13, "4006381333931", module: 2), x: 600, y: 260, degrees: degrees)])
        let passes = CodeCandidates.linearPasses(
            for: candidates(image), region: Scene.full(image), formats: .all, role: .still(.uprightLinear), label: "upright linear")
        #expect(!passes.isEmpty)
        #expect(passes.allSatisfy { $0.formats == BarcodeFormats.linear && $0.tryRotate && $0.upscale == 1 })
        let hit = try #require(ZXingDecoder(isolated: false).decode(image, passes: passes).detections.first { $0.text == "4006381333931" })
        #expect(hit.corners.center.distance(to: Point(600, 260)) < 20, "\(hit.corners)")
    }

    @Test func onlySmallPatchesAreEnlarged() throws {
        let image = Scene.page(
            width: 1280, height: 720,
            [
                (Scene.symbol(.code128, "small", module: 1), x: 300, y: 300, degrees: 30),
                (Scene.symbol(.code128, "a much larger code 128", module: 4), x: 850, y: 360, degrees: 30)
            ])
        let found = candidates(image)
        #expect(found.count >= 2)
        let enlarged = CodeCandidates.linearPasses(
            for: found, region: Scene.full(image), formats: .all, upscale: 2, role: .still(.enlargedLinear), label: "enlarged")
        #expect(!enlarged.isEmpty && enlarged.count < found.count, "\(found.map(\.bounds))")
        #expect(enlarged.allSatisfy { $0.upscale == 2 && max($0.crop.width, $0.crop.height) <= CodeCandidates.enlargeLinearUpTo })
    }

    @Test func aCheckDigitlessReadOfTheTurnedCropsAloneNeedsASecondRead() {
        func found(_ format: BarcodeFormat, _ text: String, _ role: DecodePass.Role) -> DecodeReport.Found {
            DecodeReport.Found(
                detection: Detection(
                    format: format, text: text, bytes: Array(text.utf8), corners: Quadrilateral([Point(0, 0), Point(9, 0), Point(9, 9), Point(0, 9)])),
                role: role)
        }
        let once = [found(.codabar, "A123B", .still(.uprightLinear)), found(.ean13, "4006381333931", .still(.uprightLinear))]
        // An EAN's one check digit is no second opinion either (`StillSecondLookTests`).
        #expect(StillSecondLook.confirmed(once).isEmpty)
        let twice = [found(.codabar, "A123B", .still(.uprightLinear)), found(.codabar, "A123B", .still(.enlargedLinear))]
        #expect(StillSecondLook.confirmed(twice).count == 2)
        #expect(StillSecondLook.confirmed([found(.codabar, "A123B", .still(.defaults))]).count == 1)
    }
}

/// A live scene held still gets every expensive pass before it rests.
@Suite struct HeldStillSceneTests {
    @Test func aStillSceneGetsEachExpensivePassOnceWhateverTheBudget() throws {
        let frame = Frame.yuyv(
            Scene.page(width: 640, height: 480, [(Scene.symbol(.dataMatrix, "patch", module: 1).inverted(), x: 500, y: 100, degrees: 0)]))
        var decoder = FrameDecoder(decoder: ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker(lanes: 1)))
        decoder.extraPassBudgetMilliseconds = 0
        _ = try decoder.decode(frame)
        #expect(decoder.lastExtras.isEmpty, "over budget, a moving scene gets none")
        #expect(!decoder.hasTriedEveryPass)
        decoder.sceneIsStill = true
        var kinds: [ExtraPassSchedule.Kind] = []
        while !decoder.hasTriedEveryPass && kinds.count <= ExtraPassSchedule.kinds {
            _ = try decoder.decode(frame)
            #expect(decoder.lastExtras.count == 1)
            kinds += decoder.lastExtras
        }
        #expect(decoder.hasTriedEveryPass)
        #expect(Set(kinds).count == kinds.count, "each once: \(kinds)")
        #expect(kinds.contains(.harderLinear) && kinds.contains(.rotated) && kinds.contains(.inverted))
        decoder.sceneIsStill = false
        _ = try decoder.decode(frame)
        #expect(!decoder.hasTriedEveryPass, "a scene that moved starts a new round")
    }

    @Test func aTiltedEANHeldStillIsReadBeforeTheSceneRests() throws {
        let frame = Frame.yuyv(
            Scene.page(width: 1280, height: 720, [(Scene.symbol(.ean13, "4006381333931", module: 2), x: 700, y: 400, degrees: 33)]))
        var decoder = FrameDecoder(decoder: ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker(lanes: 1)))
        decoder.extraPassBudgetMilliseconds = 0
        decoder.locator.limit = 0  // the localizer's band reads it in the first frame (`LocatedLinearFrameTests`)
        #expect(try decoder.decode(frame).detections.isEmpty, "the cheap passes miss it")
        decoder.sceneIsStill = true
        var read = false
        while !decoder.hasTriedEveryPass && !read {
            read = try decoder.decode(frame).detections.map(\.text) == ["4006381333931"]
        }
        #expect(read)
    }
}
