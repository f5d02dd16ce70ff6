import ScandCore

/// CONTROLS: the camera's controls as it describes them, with their values now, and which of them were set
/// over the socket (the setup page) on top of `[camera.controls]`.
public struct CameraControlsReport: Sendable, Equatable {
    public var device: String
    public var controls: [CameraControl]
    /// Set over the socket since the daemon started or kept from before: in force now and after a replug.
    public var set: [CameraControlSetting]
    /// Those kept in the state directory: in force after a restart too.
    public var kept: [CameraControlSetting]

    public init(device: String, controls: [CameraControl], set: [CameraControlSetting] = [], kept: [CameraControlSetting] = []) {
        self.device = device
        self.controls = controls
        self.set = set
        self.kept = kept
    }
}

/// `?CONTROLS={"set":[{"name":"focus_absolute","value":250}],"keep":true};`: controls to set in this
/// order, and whether to keep them (with those set before) in the state directory for restarts.
public struct CameraControlChange: Sendable, Equatable {
    public var settings: [CameraControlSetting]
    public var keep: Bool

    public init(settings: [CameraControlSetting], keep: Bool = false) {
        self.settings = settings
        self.keep = keep
    }

    /// Most controls one request sets: a camera has a few dozen.
    public static let maxSettings = 64
}
