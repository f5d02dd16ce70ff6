import Foundation
import ScandCore
import ScandProtocol
import NIOConcurrencyHelpers
import Testing
import ScandTestSupport

/// The setup page's camera controls in a real browser, through the real `scand web`. The host has no camera,
/// so a `FakeDaemon` answers as the daemon does for one (listing, setting, refusing, keeping); the daemon's
/// side against a real V4L2 camera is `VividEndToEndTests`.
extension WebEndToEndTests {
    /// A webcam's controls as the daemon lists them: autofocus on rules focus_absolute; a button is not shown.
    final class Webcam: Sendable {
        private struct State {
            var values: [String: Int] = ["brightness": 128, "auto_exposure": 3, "focus_automatic_continuous": 1, "focus_absolute": 0]
            var set: [CameraControlSetting] = []
            var kept: [CameraControlSetting] = []
        }
        private let state = NIOLockedValueBox(State())

        private func report(_ s: State) -> CameraControlsReport {
            let v = s.values
            return CameraControlsReport(
                device: "/dev/video0",
                controls: [
                    CameraControl(
                        id: 1, label: "Brightness", kind: .integer, minimum: 0, maximum: 255, step: 1, defaultValue: 128, value: v["brightness"]),
                    CameraControl(
                        id: 2, label: "Auto Exposure", kind: .menu([1: "Manual Mode", 3: "Aperture Priority Mode"]), minimum: 0, maximum: 3, step: 1,
                        defaultValue: 3, value: v["auto_exposure"]),
                    CameraControl(
                        id: 3, label: "Focus, Automatic Continuous", kind: .boolean, minimum: 0, maximum: 1, step: 1, defaultValue: 1,
                        value: v["focus_automatic_continuous"]),
                    CameraControl(
                        id: 4, label: "Focus, Absolute", kind: .integer, minimum: 0, maximum: 250, step: 5, defaultValue: 0,
                        value: v["focus_absolute"],
                        inactive: v["focus_automatic_continuous"] == 1),
                    CameraControl(id: 5, label: "Button", kind: .button, minimum: 0, maximum: 0, step: 0, defaultValue: 0, value: nil)
                ], set: s.set, kept: s.kept)
        }

        func answer(_ request: ClientRequest) -> Event {
            switch request {
            case .status:
                return .status(
                    StatusReport(
                        device: DeviceStatus(device: "/dev/video0", state: .streaming, format: FrameFormat.packed(.yuyv, width: 1280, height: 720)),
                        counters: FrameCounters(), clients: ClientCounters(), stdoutDropped: 0, regionOfInterest: .full))
            case .cameraControls:
                return .cameraControls(state.withLockedValue { report($0) })
            case .setCameraControls(let change):
                return state.withLockedValue { s in
                    let controls = report(s).controls
                    let resolved: [(CameraControl, Int)]
                    do { resolved = try CameraControl.resolve(change.settings, among: controls) } catch { return .error("/dev/video0: \(error)") }
                    // As some webcams do: a value in range that the camera still refuses (VIDIOC_S_CTRL fails).
                    if resolved.contains(where: { $0.0.name == "brightness" && $0.1 > 250 }) {
                        return .error("/dev/video0: camera control 'brightness': the camera refused 255: Invalid argument")
                    }
                    for (control, number) in resolved { s.values[control.name] = number }
                    s.set = s.set.overridden(by: change.settings)
                    if change.keep { s.kept = s.set }
                    return .cameraControls(report(s))
                }
            default:
                return .error("no frame to show: the camera is waiting for /dev/video0")
            }
        }
    }

    @Test(.enabled(if: hasBrowser, "needs chromium, chromium-driver and selenium (scripts/install-deps)"), .timeLimit(.minutes(3)))
    func theCameraControlsAreSetFromThePageAndKept() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let webcam = Webcam()
        let daemon = try FakeDaemon(path: dir + "/scand.sock", answer: webcam.answer)
        defer { daemon.stop() }
        let web = try DaemonProcess(["web", "--listen", "127.0.0.1:0", "--socket", daemon.path])
        var url: String?
        web.wait {
            url = web.stderr.lazy.compactMap { line in line.range(of: "serving ").map { String(line[$0.upperBound...].prefix { $0 != " " }) } }.first
            return url != nil
        }
        try #require(url != nil, "scand web did not say where it serves: \(web.stderr)")
        let screenshot = try Self.artifacts() + "/setup-page-controls.png"
        let browser = try SpawnedProcess(
            "/usr/bin/env", Self.browserScript("camera_controls.py", ["--url", url!, "--screenshot", screenshot]))
        let status = browser.finish(seconds: 120)
        web.signal(SIGTERM)
        #expect(web.finish() == 0)
        try #require(status != 77, "skipped: \(browser.stdout)")
        #expect(status == 0, "\(browser.stdout)\(browser.stderr)\nscand web: \(web.stderr.suffix(20))")
        // What the page asked of the daemon, in order: the typed requests the daemon reads.
        let changes = daemon.requests.compactMap { line -> CameraControlChange? in
            guard case .setCameraControls(let change)? = try? ClientRequest.parse(line) else { return nil }
            return change
        }
        #expect(
            changes == [
                CameraControlChange(settings: [.init(name: "brightness", value: .integer(200))]),
                CameraControlChange(settings: [.init(name: "auto_exposure", value: .text("Manual Mode"))]),
                CameraControlChange(settings: [.init(name: "focus_automatic_continuous", value: .boolean(false))]),
                CameraControlChange(settings: [], keep: true),
                CameraControlChange(settings: [.init(name: "brightness", value: .integer(255))])
            ], "\(daemon.requests)")
    }
}
