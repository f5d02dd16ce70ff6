import Foundation
import Testing
import ScandCapture
import ScandCore
import ScandDecoding
import ScandTestSupport
import NIOConcurrencyHelpers
@testable import ScandPipeline

/// Issue 30, 2 and 3 and issue 45 on the live pipeline, in lockstep on generated recordings: a code shown for a
/// few frames is scanned once with the right text, a misread in one frame never, an add-on read in two frames of
/// an appearance rides on the code's one SCAN, and a code no frame shows clearly is not scanned.
@Suite struct LiveSwipeTests {
    /// What a pipeline wrote.
    final class Lines: Sendable {
        private let events = NIOLockedValueBox<[String]>([])
        var all: [String] { events.withLockedValue { $0 } }
        var scans: [String] { all.filter { $0.contains(#""class":"SCAN""#) } }
        var sink: OutputSink { OutputSink(event: { e in self.events.withLockedValue { $0.append(e.line) } }, log: { _ in }) }
    }

    /// The pages `draw` makes (drawn off the cooperative pool: `OffPool`), recorded and replayed in lockstep.
    func run(name: String, _ draw: @escaping @Sendable () throws -> [LumaImage]) async throws -> Lines {
        let path = try await OffPool.run {
            try Scene.record(draw(), to: NSTemporaryDirectory() + "scand-swipe-\(getpid())-\(name).rec", gapMicroseconds: 33_333)
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = Lines()
        var options = CaptureSession.Options()
        options.delivery = ReplaySource.Pace.lockstep.delivery
        let pipeline = LivePipeline(
            source: ReplaySource(path: path, pace: .lockstep), decoder: FrameDecoder(), output: lines.sink, captureOptions: options,
            clock: ReplaySource.Pace.lockstep.clock)
        await pipeline.run()
        return lines
    }

    static func page(_ items: [(LumaImage, x: Int, y: Int)]) -> LumaImage {
        Scene.page(width: 640, height: 480, background: 235, centred: items)
    }

    @Test func aSwipeOfThreeFramesIsScannedOnce() async throws {
        // An EAN-8 with short bars (a frame reads it on lines too close together to count twice), 230 px a frame:
        // further than a track follows. 3 px modules: each frame is a whole look (2 px ones are half a look).
        let lines = try await run(name: "swipe") {
            let code = try SymbolWriter.render(.ean8, text: "96385074", moduleSize: 3, barHeight: 6)
            let swipe = [100, 330, 560].map { Self.page([(code, x: $0, y: 240)]) }
            let empty = Self.page([])
            return [empty, empty] + swipe + [empty, empty, empty]
        }
        #expect(lines.scans.count == 1 && lines.scans.allSatisfy { $0.contains(#""text":"96385074""#) }, "\(lines.all)")
    }

    @Test func aMisreadInOneFrameIsNeverScanned() async throws {
        // One frame holds another valid EAN-8 on a strip of its rows, as a scan line through a defect reads.
        let lines = try await run(name: "misread") {
            let right = try SymbolWriter.render(.ean8, text: "96385074", moduleSize: 3)
            let wrong = try SymbolWriter.render(.ean8, text: "96385081", moduleSize: 3)
            var misread = right
            for y in (right.height / 2 - 6)..<(right.height / 2 + 6) {
                for x in 0..<right.width { misread[x, y] = wrong[x, y] }
            }
            return (0..<10).map { Self.page([(($0 == 4 ? misread : right), x: 300 + $0, y: 240)]) }
        }
        #expect(!lines.all.contains { $0.contains("96385081") }, "\(lines.all)")
        #expect(lines.scans.count == 1 && lines.scans.allSatisfy { $0.contains(#""text":"96385074""#) }, "\(lines.all)")
    }

    @Test func anAddOnReadInTwoFramesOfTwentyIsReportedOnceWithIt() async throws {
        // Not a book or periodical (no prefix wait): without the bars beside it, scanned at its second look without
        // them. An add-on needs two looks as a number does: read in frames 5 and 6 only.
        let lines = try await run(name: "addon") {
            let broken = try AddOnScene.brokenAddOn(.ean13, "4006381333931+51299", module: 3)
            let clean = try SymbolWriter.render(.ean13, text: "4006381333931+51299", moduleSize: 3)
            return (0..<20).map { Self.page([((5...6).contains($0) ? clean : broken, x: 300 + $0, y: 240)]) }
        }
        #expect(lines.scans.count == 1 && lines.scans.allSatisfy { $0.contains(#""text":"400638133393151299""#) }, "\(lines.all)")
    }

    /// A swipe in a webcam's exposure: an EAN-13 of 2 px modules moving 50 px a frame, each frame smeared 5.5 px
    /// across its bars, which no frame reads as it is. Its bands are read deblurred, each a guess at the smear (half
    /// a look a frame), and each frame's own bars, held against the number's pattern under that smear, agree: it is
    /// scanned once (docs/architecture.md, "Why scand trusts a SCAN"; before the smear was modelled no frame's bars
    /// fitted and it was never scanned). The same swipe in a shorter exposure is scanned once, read as it is.
    @Test func aCodeSmearedPastReadingAsItIsIsScannedOnceItsBarsAgreeUnderTheSmear() async throws {
        let lines = try await run(name: "smeared") {
            let code = try SymbolWriter.render(.ean13, text: "2284368540608", moduleSize: 2)
            let empty = Self.page([])
            let swipe = (0..<6).map { Scene.smeared(Self.page([(code, x: 170 + 50 * $0, y: 240)]), length: 5.5, seed: UInt32(3 + $0)) }
            return [empty, empty] + swipe + [empty, empty, empty]
        }
        #expect(lines.scans.count == 1 && lines.scans.allSatisfy { $0.contains(#""text":"2284368540608""#) }, "\(lines.all)")
        let short = try await run(name: "smeared-short") {
            let code = try SymbolWriter.render(.ean13, text: "2284368540608", moduleSize: 3)
            let empty = Self.page([])
            let swipe = (0..<6).map { Scene.smeared(Self.page([(code, x: 170 + 50 * $0, y: 240)]), length: 1.5, seed: UInt32(3 + $0)) }
            return [empty, empty] + swipe + [empty, empty, empty]
        }
        #expect(short.scans.count == 1 && short.scans.allSatisfy { $0.contains(#""text":"2284368540608""#) }, "\(short.all)")
    }
}
