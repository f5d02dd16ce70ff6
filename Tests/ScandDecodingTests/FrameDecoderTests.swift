import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

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
        // An inverted QR code, and a Code 128 turned upright (the cheap linear pass scans rows only): the cheap
        // passes read neither.
        let page = Scene.page(
            width: 1280, height: 720, background: 235,
            [
                (Scene.symbol(.qrCode, "light on dark", module: 5).inverted(), x: 400, y: 360, degrees: 0),
                (Scene.symbol(.code128, "upright", module: 2), x: 900, y: 360, degrees: 90)
            ])
        // Without the localizer, whose bands read the Code 128 every frame: what is tracked is the rotated pass's find.
        func oneLane() -> FrameDecoder {
            var d = FrameDecoder(decoder: ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker(lanes: 1)))
            d.locator.limit = 0
            return d
        }
        var cheapOnly = oneLane()
        cheapOnly.extraPassBudgetMilliseconds = 0
        #expect(try cheapOnly.decode(frames(page)).detections.isEmpty, "the cheap passes alone read neither")
        var decoder = oneLane()
        decoder.extraPassBudgetMilliseconds = .infinity
        var seen: [Set<String>] = []
        var tracking: [[DecodePass]] = []
        for _ in 0..<12 {
            seen.append(Set(try decoder.decode(frames(page)).detections.map(\.text)))
            tracking.append(decoder.lastPasses.filter { if case .trackedCrop = $0.role { true } else { false } })
        }
        let firstInverted = try #require(seen.firstIndex { $0.contains("light on dark") })
        let firstTop = try #require(seen.firstIndex { $0.contains("upright") }, "\(seen)")
        // Every kind of expensive pass comes round within three frames.
        #expect(max(firstInverted, firstTop) < ExtraPassSchedule.Kind.allCases.count, "\(seen)")
        // Once found, a code stays found frame after frame: re-read from a small crop with its finder's settings.
        #expect(seen[firstInverted...].allSatisfy { $0.contains("light on dark") })
        #expect(seen[firstTop...].allSatisfy { $0.contains("upright") })
        let last = try #require(tracking.last)
        #expect(last.count == 2, "\(last.map(\.label))")
        #expect(last.allSatisfy { $0.crop.width * $0.crop.height < 1280 * 720 / 6 }, "\(last.map(\.crop))")
        #expect(last.contains { $0.invert && $0.formats == BarcodeFormats(.qrCode) })
        #expect(last.contains { $0.formats == BarcodeFormats(.code128) && $0.tryRotate })
    }

    @Test func aTrackedCodeThatLeavesIsLeftToTheExpensivePasses() throws {
        let inverted = Scene.page(
            width: 640, height: 480, background: 235,
            [(Scene.symbol(.qrCode, "gone soon", module: 4).inverted(), x: 320, y: 240, degrees: 0)])
        var decoder = FrameDecoder(formats: BarcodeFormats(.qrCode))
        decoder.extraPassBudgetMilliseconds = .infinity
        for _ in 0..<6 { _ = try decoder.decode(frames(inverted)) }
        #expect(decoder.tracked.entries.count == 1)
        let empty = frames(LumaImage(width: 640, height: 480, fill: 235))
        for _ in 0...TrackedCrops.keepForMisses { _ = try decoder.decode(empty) }
        #expect(decoder.tracked.entries.isEmpty)
    }

    @Test(arguments: [1, 2])
    func anEANAnywhereInViewIsReadInTheFirstFrame(lanes: Int) throws {
        // zxing's fast linear scan reads rows near the middle only; the cheap pass searches harder (every row).
        let page = Scene.page(width: 1280, height: 720, [(Scene.symbol(.ean13, "4006381333931", module: 3), x: 900, y: 60, degrees: 0)])
        var decoder = FrameDecoder(decoder: ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker(lanes: lanes)))
        decoder.extraPassBudgetMilliseconds = 0
        #expect(try decoder.decode(frames(page)).detections.map(\.text) == ["4006381333931"])
    }

    @Test func fixedITFLengthsRejectOtherLengths() throws {
        let page = Scene.page(
            width: 1280, height: 720,
            [
                (Scene.symbol(.itf, "00012345678905", module: 3), x: 400, y: 360, degrees: 0),
                (Scene.symbol(.itf, "1234567890", module: 3), x: 900, y: 300, degrees: 0)
            ])
        var any = FrameDecoder(formats: BarcodeFormats(.itf))
        any.extraPassBudgetMilliseconds = 0
        #expect(Set(try any.decode(frames(page)).detections.map(\.text)) == ["00012345678905", "1234567890"])
        var fourteen = FrameDecoder(formats: BarcodeFormats(.itf), itfLengths: [14])
        fourteen.extraPassBudgetMilliseconds = 0
        #expect(try fourteen.decode(frames(page)).detections.map(\.text) == ["00012345678905"])
    }

    @Test func expensivePassesBackOffWhileTheyFindNothingAndComeBackForAFind() throws {
        var decoder = FrameDecoder(decoder: ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker(lanes: 1)))
        decoder.extraPassBudgetMilliseconds = .infinity
        let blank = frames(LumaImage(width: 640, height: 480, fill: 200))
        var withExtras: [Int] = []
        for i in 0..<40 {
            _ = try decoder.decode(blank)
            if !decoder.lastExtras.isEmpty { withExtras.append(i) }
        }
        // Every frame at first, a round of the kinds that apply to a scene without code-like patches (inverted,
        // rotated, downscaled: the upright linear ones need a patch, the harder linear one a still scene); after
        // rounds that found nothing, one frame in `maxGap`.
        #expect(Array(withExtras.prefix(3)) == [0, 1, 2], "\(withExtras)")
        let late = withExtras.filter { $0 >= 24 }
        #expect(zip(late, late.dropFirst()).allSatisfy { $1 - $0 == ExtraPassSchedule.maxGap }, "\(withExtras)")
        // A code only an expensive pass reads makes a new code-like patch: the passes take their turns every frame
        // again and it is found within a round, then tracked.
        let inverted = frames(
            Scene.page(
                width: 640, height: 480, background: 235,
                [(Scene.symbol(.qrCode, "late", module: 4).inverted(), x: 320, y: 240, degrees: 0)]))
        var firstSeen: Int?
        for i in 0..<(ExtraPassSchedule.kinds * ExtraPassSchedule.maxGap + 1) where firstSeen == nil {
            if try decoder.decode(inverted).detections.map(\.text) == ["late"] { firstSeen = i }
        }
        #expect(firstSeen.map { $0 < ExtraPassSchedule.kinds } == true, "\(String(describing: firstSeen))")
        for _ in 0..<3 { #expect(try decoder.decode(inverted).detections.map(\.text) == ["late"]) }
    }

    @Test func noExpensivePassesOverBudget() throws {
        let page = Scene.page(width: 640, height: 480, [(Scene.symbol(.qrCode, "x", module: 4).inverted(), x: 320, y: 240, degrees: 0)])
        var decoder = FrameDecoder()
        decoder.extraPassBudgetMilliseconds = 0
        for _ in 0..<8 { #expect(try decoder.decode(frames(page)).detections.isEmpty) }
    }
}

/// Cameras that deliver GREY, UYVY or planar 4:2:0 (NV12, YU12) are read from their luma plane in place.
@Suite struct FramePixelFormatTests {
    let luma = Scene.page(width: 320, height: 240, [(Scene.symbol(.qrCode, "any format", module: 3), x: 160, y: 120, degrees: 0)])

    func frame(_ fourcc: FourCC) -> Frame {
        let w = luma.width, h = luma.height
        switch fourcc {
        case .grey:
            return Frame(format: .packed(.grey, width: w, height: h), bytes: luma.pixels, sequence: 0, timestampMicroseconds: 0)
        case .uyvy:
            var bytes = [UInt8](repeating: 128, count: w * h * 2)
            for i in 0..<luma.pixels.count { bytes[2 * i + 1] = luma.pixels[i] }
            return Frame(
                format: FrameFormat(fourcc: .uyvy, width: w, height: h, bytesPerLine: 2 * w, imageSize: 2 * w * h),
                bytes: bytes, sequence: 0, timestampMicroseconds: 0)
        default:
            // Y plane with 16 bytes of row padding, then chroma.
            let stride = w + 16
            var bytes = [UInt8](repeating: 128, count: stride * h * 3 / 2)
            for y in 0..<h { for x in 0..<w { bytes[y * stride + x] = luma[x, y] } }
            return Frame(
                format: FrameFormat(fourcc: fourcc, width: w, height: h, bytesPerLine: stride, imageSize: bytes.count),
                bytes: bytes, sequence: 0, timestampMicroseconds: 0)
        }
    }

    @Test(arguments: [FourCC.grey, .uyvy, .nv12, .yu12])
    func readsTheLumaInPlace(_ fourcc: FourCC) throws {
        var decoder = FrameDecoder(formats: BarcodeFormats(.qrCode))
        decoder.extraPassBudgetMilliseconds = 0
        let f = frame(fourcc)
        #expect(f.luma() == luma)
        #expect(try decoder.decode(f).detections.map(\.text) == ["any format"])
    }

    @Test func refusesAFrameShorterThanItsFormat() {
        var f = frame(.nv12)
        f.bytes.removeLast(f.bytes.count / 2)
        var decoder = FrameDecoder()
        #expect(throws: ImageGeometryError.self) { try decoder.decode(f) }
    }
}
