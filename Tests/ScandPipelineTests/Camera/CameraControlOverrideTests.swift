import Foundation
import NIOConcurrencyHelpers
import ScandCapture
import ScandCore
import ScandDecoding
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing
@testable import ScandPipeline

/// `?CONTROLS` against real pipelines without a camera to set: a recording, and a camera that is not there.
/// (A real camera's controls are set and kept in `VividEndToEndTests`.)
@Suite struct CameraControlOverrideTests {
    func pipeline(_ source: sending FrameSource) -> LivePipeline {
        LivePipeline(source: source, decoder: FrameDecoder(), output: OutputSink(event: { _ in }, log: { _ in }))
    }

    @Test func aRecordingHasNoControlsToSetOrKeep() async throws {
        // A frame a second for two minutes at the recorded pace: still playing however slow the test runs (TSan).
        let path = try await OffPool.run {
            let page = Scene.page(width: 320, height: 240, background: 200, centred: [])
            return try Scene.record(repeatElement(page, count: 120), to: ScandBinary.temporaryDirectory() + "/still.rec", gapMicroseconds: 1_000_000)
        }
        let running = pipeline(ReplaySource(path: path))
        async let run: Void = running.run()
        let dir = ScandBinary.temporaryDirectory()
        let override = CameraControlOverride(store: CameraControlStore(directory: dir), log: .scand(write: { _, _ in }))
        #expect(try await running.cameraControls() == nil)
        let set = await override.change(
            CameraControlChange(settings: [CameraControlSetting(name: "gain", value: .integer(1))], keep: true), on: { running },
            adopt: { _ in Issue.record("nothing was set") })
        #expect(set == .error("\(path): a recording has no camera controls"))
        let kept = await override.change(CameraControlChange(settings: [], keep: true), on: { running }, adopt: { _ in })
        #expect(kept == .error("\(path): a recording has no camera controls to keep"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/camera-controls.toml"), "nothing refused is kept")
        #expect(await override.applied(to: ScandConfig()).cameraControls == [])
        await running.stop()
        await run
    }

    @Test func aCameraThatIsNotThereSaysSoAndAnEndedCaptureAnswersAtOnce() async throws {
        let missing = ScandBinary.temporaryDirectory() + "/video9"
        var options = CaptureSession.Options()
        options.backoff = DeviceStateMachine.Backoff(initial: .milliseconds(50), maximum: .milliseconds(50))
        let running = LivePipeline(
            source: V4L2Source(path: missing), decoder: FrameDecoder(), output: OutputSink(event: { _ in }, log: { _ in }), captureOptions: options)
        async let run: Void = running.run()
        let listed = await #expect(throws: CaptureError.self) { try await running.cameraControls() }
        #expect(listed?.description.contains("the camera is not open (waiting for it)") == true, "\(String(describing: listed))")
        await running.stop()
        await run
        let after = await #expect(throws: CaptureError.self) { try await running.cameraControls(set: []) }
        #expect(after?.description.contains("capture has ended") == true, "\(String(describing: after))")
    }

    @Test func keptControlsAreLoadedAndOverrideTheConfiguration() async throws {
        let dir = ScandBinary.temporaryDirectory()
        let store = CameraControlStore(directory: dir)
        try store.save([CameraControlSetting(name: "gain", value: .integer(7))])
        let lines = NIOLockedValueBox<[String]>([])
        let override = CameraControlOverride(store: store, log: .scand(write: { message, _ in lines.withLockedValue { $0.append(message) } }))
        var config = ScandConfig()
        config.cameraControls = [CameraControlSetting(name: "gain", value: .integer(1)), CameraControlSetting(name: "brightness", value: .integer(9))]
        #expect(
            await override.applied(to: config).cameraControls == [
                .init(name: "gain", value: .integer(7)), .init(name: "brightness", value: .integer(9))
            ])
        #expect(
            lines.withLockedValue { $0 } == ["camera controls gain from \(store.path) (set on the setup page; they override the configuration's)"])
        let report = await override.report(device: "/dev/video0", controls: nil)
        #expect(report.set == report.kept && report.kept.count == 1 && report.controls.isEmpty)
    }
}
