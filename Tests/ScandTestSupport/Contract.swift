import Foundation
import ScandCore
import ScandProtocol

/// The answers of a daemon that has a frame and lets the test's uid change settings.
public enum Contract {
    public static let statusEvent = Event.status(
        StatusReport(
            device: DeviceStatus(device: "/dev/video0", state: .streaming, format: FrameFormat.packed(.yuyv, width: 1280, height: 720)),
            counters: counters, clients: ClientCounters(), stdoutDropped: 0, regionOfInterest: .full))
    public static let status = statusEvent.line
    public static var counters: FrameCounters {
        var c = FrameCounters()
        (c.captured, c.decoded) = (18, 17)
        return c
    }
    public static let snapshotEvent = Event.snapshot(
        Snapshot(frame: 812, width: 640, height: 360, sourceWidth: 1280, sourceHeight: 720, mimeType: "image/jpeg", data: [0xFF, 0xD8, 0xFF, 0xE0]))
    public static let snapshot = snapshotEvent.line
    public static let metrics = Event.metrics(
        "# HELP scand_frames_captured_total Frames captured.\n# TYPE scand_frames_captured_total counter\nscand_frames_captured_total 18\n")
    public static let controls = CameraControlsReport(
        device: "/dev/video0",
        controls: [CameraControl(id: 9, label: "Brightness", kind: .integer, minimum: 0, maximum: 255, step: 1, defaultValue: 128, value: 128)])
    public static let refusal = Event.error("changing settings needs membership of group 'scand-admin' (uid 1000 is not a member)")

    public static func answer(_ request: ClientRequest) -> Event {
        switch request {
        case .status: statusEvent
        case .snapshot: snapshotEvent
        case .metrics: metrics
        case .setRegionOfInterest(let rect): .regionOfInterest(rect)
        case .cameraControls: .cameraControls(controls)
        case .setCameraControls(let change):
            .cameraControls(
                CameraControlsReport(
                    device: "/dev/video0", controls: controls.controls, set: change.settings, kept: change.keep ? change.settings : []))
        default: .error("unknown request")
        }
    }

    public static func temporarySocket() -> String {
        TestFiles.directory("scand-web") + "/scand.sock"
    }
}
