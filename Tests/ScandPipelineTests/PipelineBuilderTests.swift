import Foundation
import Testing
import ScandCore
import ScandDecoding
import ScandTestSupport
@testable import ScandPipeline

/// `scand run`'s pipelines, built from a configuration as the command builds them.
@Suite struct PipelineBuilderTests {
    @Test func aLockstepReplayDecodesEveryFrameUpToTheLimit() async throws {
        let path = try await LivePipelineTests().recording([(.qrCode, "built", 320, 240)], frames: 6, name: "built")
        let lines = LivePipelineTests.Lines()
        var config = ScandConfig()
        config.formats = BarcodeFormats(.qrCode)
        let builder = PipelineBuilder(source: .replay(path: path, pace: .lockstep), frameLimit: 4)
        #expect(builder.replayPace?.keepsRecordedStamps == true)
        let pipeline = builder.pipeline(for: config, output: lines.sink)
        await pipeline.run()
        let c = pipeline.counters
        // None dropped; once its code is scanned, the still scene rests (skipped frames keep the code in view).
        #expect(c.captured == 4 && c.dropped == 0 && c.decoded + c.skippedStatic == 4 && c.codes == c.decoded, "\(c)")
        #expect(lines.all.last { $0.contains(#""class":"DEVICE""#) }?.contains(#""state":"stopped","message":"shutting down""#) == true)
    }

    /// Issue 30, 6: lockstep replays of one session gave 75 to 79 items, run after run: the expensive passes were
    /// scheduled against measured wall time. A lockstep decoder's plan ignores it; a camera's keeps its budget.
    @Test func aLockstepReplayDecodesOnAFixedPlanAndACameraOnABudget() {
        let config = ScandConfig()
        #expect(PipelineBuilder(source: .replay(path: "x", pace: .lockstep)).frameDecoder(for: config).extraPassBudgetMilliseconds == .infinity)
        for builder in [
            PipelineBuilder(), PipelineBuilder(source: .replay(path: "x", pace: .recorded)), PipelineBuilder(source: .replay(path: "x", pace: .flood))
        ] {
            #expect(builder.frameDecoder(for: config).extraPassBudgetMilliseconds == FrameDecoder().extraPassBudgetMilliseconds)
        }
    }

    /// The daemon says READY once the camera has reported its first state: the wait returns with it, and a
    /// pipeline that never reports (never started) is waited for no longer than the timeout.
    @Test func theFirstDeviceStatusIsAwaitedUpToATimeout() async throws {
        var config = ScandConfig()
        config.device = "/dev/scand-test-no-such-camera"
        let lines = LivePipelineTests.Lines()
        let pipeline = PipelineBuilder().pipeline(for: config, output: lines.sink)
        let idle = PipelineBuilder().pipeline(for: config, output: lines.sink)
        await idle.firstDeviceStatus(within: .milliseconds(50))
        #expect(idle.deviceStatus == nil)
        async let run: Void = pipeline.run()
        await pipeline.firstDeviceStatus(within: .seconds(60))
        #expect(pipeline.deviceStatus?.state == .waiting)
        await pipeline.stop()
        await run
    }

    @Test func theCameraIsTheConfiguredDevice() async throws {
        var config = ScandConfig()
        config.device = "/dev/scand-test-no-such-camera"
        let lines = LivePipelineTests.Lines()
        let pipeline = PipelineBuilder().pipeline(for: config, output: lines.sink)
        async let run: Void = pipeline.run()
        #expect(await Eventually.check(seconds: 5) { pipeline.deviceStatus != nil })
        await pipeline.stop()
        await run
        let status = try #require(lines.all.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(status["path"] as? String == config.device && status["state"] as? String == "waiting")
        #expect(await pipeline.failure == nil, "a missing camera is waited for")
    }
}
