import Foundation
import Testing
import ScandCapture
import ScandCore
import ScandDecoding
import ScandTestSupport
@testable import ScandService

/// Golden replays: a generated frame sequence goes through the real pipeline (replay source, capture session,
/// zxing, tracker, event writer) in lockstep — every frame decoded, time taken from the frames' recorded
/// stamps — and must give exactly this event stream.
@Suite struct GoldenReplayTests {
    /// Frames 100 ms apart; each lists the codes in view as (format, text, centre x).
    static let script: [[(BarcodeFormat, String, Int)]] = {
        var frames: [[(BarcodeFormat, String, Int)]] = []
        func add(_ n: Int, _ codes: [(BarcodeFormat, String, Int)]) { frames += Array(repeating: codes, count: n) }
        add(5, [(.qrCode, "A", 160)])  // 0-4: A enters
        add(5, [(.qrCode, "A", 170), (.qrCode, "B", 480)])  // 5-9: B joins, A moves a little
        add(5, [(.qrCode, "B", 480)])  // 10-14: A leaves (LOST at 1.4 s)
        add(5, [])  // 15-19: B leaves (LOST at 1.9 s)
        add(3, [(.qrCode, "A", 480)])  // 20-22: A back within the forget time: no SCAN
        add(37, [])  // 23-59: A LOST again at 2.7 s, forgotten at 4.7 s
        add(3, [(.qrCode, "A", 160)])  // 60-62: A after the forget time: a new SCAN (LOST at 6.7 s)
        add(4, [(.qrCode, "C", 160), (.qrCode, "C", 480)])  // 63-66: two identical codes: two SCANs
        frames.append([(.itf, "00123456789012", 320)])  // 67: a weak format needs 3 agreeing reads
        frames.append([(.itf, "00123456789036", 320)])  // 68: a misread in the same place
        add(3, [(.itf, "00123456789012", 320)])  // 69-71: confirmed at the third agreeing read
        add(8, [])  // 72-79: everything leaves
        return frames
    }()

    func record() throws -> String {
        var cache: [String: LumaImage] = [:]
        let pages = try Self.script.map { codes in
            try Scene.page(
                width: 640, height: 360, background: 230,
                centred: codes.map { format, text, x in
                    let key = "\(format.rawValue):\(text)"
                    let symbol = try cache[key] ?? SymbolWriter.render(format, text: text, moduleSize: format.isLinear ? 2 : 4)
                    cache[key] = symbol
                    return (symbol, x: x, y: 180)
                })
        }
        return try Scene.record(pages, to: NSTemporaryDirectory() + "scand-golden-\(getpid()).rec", gapMicroseconds: 100_000)
    }

    @Test func eventStreamIsExactlyAsExpected() async throws {
        let lines = LivePipelineTests.Lines()
        var options = CaptureSession.Options()
        options.lossless = true
        var decoder = FrameDecoder()
        decoder.extraPassBudgetMilliseconds = .infinity  // expensive passes in turn on every frame: the same on every run
        let pipeline = LivePipeline(
            source: ReplaySource(path: try record(), pace: .lockstep), decoder: decoder,
            output: lines.sink, captureOptions: options, clock: { nil })
        pipeline.start()
        await pipeline.finished()
        let events = lines.all.compactMap { line -> String? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let cls = o["class"] as? String, ["SCAN", "LOST", "UPDATE"].contains(cls)
            else { return nil }
            return "\(o["frame"].map { "\($0)" } ?? "-") \(cls) \(o["id"] ?? "?") \(o["text"] ?? "")"
        }
        #expect(
            events == [
                "0 SCAN 1 A",
                "5 SCAN 2 B",
                "14 LOST 1 A",
                "19 LOST 2 B",
                "27 LOST 1 A",
                "60 SCAN 3 A",
                "63 SCAN 4 C",
                "63 SCAN 5 C",
                "67 LOST 3 A",
                "71 SCAN 6 00123456789012",
                "71 LOST 4 C",
                "71 LOST 5 C",
                "76 LOST 6 00123456789012"
            ])
        let c = pipeline.counters
        #expect(c.dropped == 0 && c.decoded + c.skippedStatic == Self.script.count)
        #expect(c.skippedStatic > 20, "the long empty stretch is not decoded again and again")
    }
}
