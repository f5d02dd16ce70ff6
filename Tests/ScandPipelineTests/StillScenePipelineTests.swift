import Foundation
import Testing
import ScandCapture
import ScandCore
import ScandTestSupport
import ScandTracking
@testable import ScandPipeline

/// The decode loop's judgement of still scenes on the live pipeline, in lockstep: what rests, when, and for how
/// long (issue 30, 5 and issue 45, 4). The decode loop's logic on recorded scenes of hundreds of frames, not
/// the pipeline's concurrency (`LivePipelineTests`): scripts/test leaves it out of the ThreadSanitizer run,
/// where drawing and decoding those frames took most of the phase.
@Suite struct StillScenePipelineTests {
    let live = LivePipelineTests()

    @Test func aStaticSceneWithoutCodesRestsOnceEveryPassHadItsTurn() async throws {
        let empty = try await live.recording([], frames: 20, name: "empty")
        // In lockstep, each frame once the decoder is ready: none dropped, however slow the machine (or
        // ThreadSanitizer) makes a decode.
        let (_, idle) = await live.run(empty, pace: .lockstep)
        let c = idle.counters
        // A held scene gets a frame for each kind of expensive pass (a code held still may need one), then
        // rests: the rest of its frames are skipped.
        #expect(c.decoded >= 1 && c.decoded <= 8 && c.dropped == 0, "\(c)")
        #expect(c.decoded + c.skippedStatic == 20, "\(c)")
    }

    /// A light 640x480 page with stripes that look like a code and that no pass reads.
    static func stripedPage(x: Int = 220, y: Int = 180) -> LumaImage {
        var page = LumaImage(width: 640, height: 480, fill: 235)
        Scene.stripes(on: &page, x: x, y: y, width: 200, height: 120)
        return page
    }

    /// `frames` frames of `stripedPage()`, recorded off the cooperative pool.
    static func stripesRecording(frames: Int, name: String, gapMicroseconds: UInt64) async throws -> String {
        try await OffPool.run {
            try Scene.record(
                repeatElement(stripedPage(), count: frames), to: NSTemporaryDirectory() + "scand-pipeline-\(getpid())-\(name).rec",
                gapMicroseconds: gapMicroseconds)
        }
    }

    /// A still scene where nothing is read but something looks like a code (here stripes, which no pass reads)
    /// is decoded every frame for `DecodeLoop.unreadPatience` frames, its bands and crops not resting: a
    /// defocused code held up, or one under glare, reads in one frame in ten or twenty. Then it rests.
    @Test func aStillSceneShowingWhatLooksLikeACodeIsTriedForThreeSecondsThenRests() async throws {
        let frames = DecodeLoop.unreadPatience + 40
        let path = try await Self.stripesRecording(frames: frames, name: "stripes", gapMicroseconds: 33_333)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (_, pipeline) = await live.run(path, pace: .lockstep)
        let c = pipeline.counters
        #expect(c.decoded + c.skippedStatic == frames && c.dropped == 0, "\(c)")
        // Every frame until the scene is `unreadPatience` frames old (the first one included), none after.
        #expect(c.decoded == DecodeLoop.unreadPatience && c.skippedStatic == frames - c.decoded, "\(c)")
    }

    /// The search lasts 3 s of the frames' own time, however few of them are decoded: at 15 fps (or a machine
    /// dropping every other frame) it ends after 45 frames, not 90 (a cluttered counter watched by a busy
    /// machine was searched for ever, the frames it dropped never counted).
    @Test func aStillScenesSearchLastsThreeSecondsOfFrameTime() async throws {
        let frames = DecodeLoop.unreadPatience
        let path = try await Self.stripesRecording(frames: frames, name: "15fps", gapMicroseconds: 66_667)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (_, pipeline) = await live.run(path, pace: .lockstep)
        let c = pipeline.counters
        #expect(c.decoded + c.skippedStatic == frames, "\(c)")
        #expect((44...47).contains(c.decoded), "\(c)")
    }

    /// Issue 45, 4: the same still scene, searched in vain, comes back after a hand passed over it (a till between
    /// customers): it rests at once (`FruitlessScenes`), not another `unreadPatience` frames; another scene is
    /// searched.
    @Test func aStillSceneSearchedInVainIsNotSearchedAgainWhenItComesBack() async throws {
        let still = DecodeLoop.unreadPatience + 20
        let path = try await OffPool.run {
            let page = Self.stripedPage()
            var hand = page
            for y in 300..<480 { for x in 0..<640 { hand[x, y] = 60 } }
            let moved = Self.stripedPage(x: 60, y: 60)
            let frames =
                Array(repeatElement(page, count: still)) + [hand, hand] + Array(repeatElement(page, count: 40)) + [hand, hand]
                + Array(repeatElement(moved, count: still))
            return try Scene.record(frames, to: NSTemporaryDirectory() + "scand-pipeline-\(getpid())-comes-back.rec", gapMicroseconds: 33_333)
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (_, pipeline) = await live.run(path, pace: .lockstep)
        let c = pipeline.counters
        // The first search, the hands and the scene's return (a frame a kind of expensive pass at most), then the
        // moved stripes' own search.
        #expect(c.decoded >= 2 * DecodeLoop.unreadPatience && c.decoded <= 2 * DecodeLoop.unreadPatience + 4 + 2 * 8, "\(c)")
    }

    /// Issue 30, 5: a ticket left on the reader was decoded on every frame for ever (16.7% of a core). Once its
    /// code is scanned and every pass had its turn, the still scene rests too, decoded again every two seconds;
    /// the code stays in view (one SCAN, no LOST) and the scene's next change is decoded at once.
    @Test func aStaticSceneHoldingAScannedCodeRestsWithoutLosingIt() async throws {
        let held = try await live.recording([(.qrCode, "left lying", 320, 240)], frames: 45, name: "held")
        let (lines, pipeline) = await live.run(held, pace: .lockstep)
        let c = pipeline.counters
        #expect(c.decoded + c.skippedStatic == 45 && c.decoded <= 8 + 45 / DecodeLoop.restingRecheck + 1, "\(c)")
        let events = lines.all.filter { $0.contains(#""class":"SCAN""#) || $0.contains(#""class":"LOST""#) }
        #expect(events.count == 1 && events[0].contains(#""class":"SCAN""#) && events[0].contains("left lying"), "\(events)")
        // Moving scenes are decoded frame after frame, at every pace.
        let moving = try await live.recording([(.qrCode, "seen", 320, 240)], frames: 10, name: "moving")
        let (_, reading) = await live.run(moving, pace: .recorded)
        #expect(reading.counters.decoded + reading.counters.dropped + reading.counters.skippedStatic == 10, "\(reading.counters)")
    }

    /// Issue 45, 4: a still scene whose code is read but not scanned (here a book's EAN-13 waiting the longest
    /// add-on wait for an add-on it does not have) was decoded every frame for as long as it stayed. After a
    /// search's length it is decoded ever more rarely, the gap doubling, its code held in view between: one SCAN
    /// when the wait ends, no LOST, and a few decodes where there were hundreds.
    @Test func aStillSceneHoldingACodeNotYetScannedIsDecodedEverMoreRarely() async throws {
        var tracker = TrackerSettings()
        tracker.addOnWait = .seconds(10)
        let frames = 330  // 11 s at 30 fps
        let path = try await live.recording([(.ean13, "9780306406157", 320, 240)], frames: frames, name: "unscanned")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (lines, pipeline) = await live.run(path, pace: .lockstep, tracker: tracker)
        let c = pipeline.counters
        #expect(c.decoded + c.skippedStatic == frames && c.dropped == 0, "\(c)")
        // The search's 90 frames, then gaps of 1, 2, 4, … 60 frames over the next 240: 90 + 7 or 8.
        #expect(c.decoded >= DecodeLoop.unreadPatience && c.decoded <= DecodeLoop.unreadPatience + 10, "\(c)")
        let events = lines.all.filter { $0.contains(#""class":"SCAN""#) || $0.contains(#""class":"LOST""#) }
        #expect(events.count == 1 && events.allSatisfy { $0.contains(#""class":"SCAN""#) && $0.contains("9780306406157") }, "\(events)")
        // Scanned when its wait ended, 10 s (300 frames) after it came into view, on a held frame: not at the
        // recording's end (whose SCAN has no frame).
        let frame = events.first.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }?["frame"] as? Int
        #expect(frame.map { (295...310).contains($0) } == true, "\(events)")
    }
}
