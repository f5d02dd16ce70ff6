/// Every setting of the daemon, with its default: ScandCore's tables as fields, the feature modules' by type
/// (`config[section: TrackerSettings.self]`). Precedence: command line > configuration file > these
/// defaults. `SettingsTable` says how the file and the command line set each one; `config/scand.toml`
/// documents them.
public struct ScandConfig: Sendable, Equatable {
    // [camera]
    public var device = "/dev/video0"
    public var width = 1280
    public var height = 720
    /// nil: the camera's highest rate at that size.
    public var framesPerSecond: Int?
    public var transform = FrameTransform.identity
    public var frameTimeoutMilliseconds = 3000
    /// The pixel format to capture in (`[camera] pixel_format`); nil: scand's choice (`PixelFormatChoice`).
    public var pixelFormat: FourCC?
    /// `[camera.controls]`: V4L2 controls by their v4l2-ctl names, set at open and after every replug, in
    /// the file's order; checked against the camera's own ranges when it is opened.
    public var cameraControls: [CameraControlSetting] = []
    // [decoding]
    public var formats = BarcodeFormats.all
    public var regionOfInterest = NormalizedRect.full
    /// ITF payload lengths to accept; empty: any. ITF has no checksum of its own, and a tilted ITF code also
    /// reads as shorter pieces of itself ("000000" from "00000010000686"), so the default is ITF-14 only, the
    /// cartons' GTIN-14, as hand scanners default (Zebra's "I 2 of 5 length 14").
    public var itfLengths: Set<Int> = [14]
    // [socket]
    /// nil: no socket (`none`), events on stdout only.
    public var socketPath: String? = ScandConfig.systemSocketPath
    /// Group of the socket file when scand creates it (socket activation sets its own); "" keeps the default.
    public var socketGroup = ""
    public var maxClients = 64
    /// Events waiting for one client before it counts as stalled and is disconnected.
    public var clientQueueLimit = 256
    public var maxRequestBytes = 4096
    /// A connection that has sent no request this long after connecting is closed (it holds a slot).
    public var requestTimeout: Duration = .seconds(5)
    /// Connections one user (the peer's uid) may hold at once, so one broken application cannot take every slot.
    public var maxClientsPerUID = 32
    /// Peers in this group (and root, and scand's own user) may change settings over the socket (`?ROI=`);
    /// "": root and scand's own user only.
    public var adminGroup = ""
    /// The tables feature modules own, by type: `scand run`'s [tracking], [service] and [journal], and [web],
    /// [mqtt] and [wedge] (read by `scand web`, `scand mqtt` and `scand wedge`; `scand run` checks them and
    /// leaves them be).
    private var sections = SectionValues()

    /// The table `type` owns: its default until the file or the command line set it.
    public subscript<S: SettingsSection>(section type: S.Type) -> S {
        get { sections[type] }
        set { sections[type] = newValue }
    }

    public init() {}

    /// Where the packaged units have the socket, and where root's scand creates it without a setting.
    public static let systemSocketPath = "/run/scand/scand.sock"

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var column: Int?
        public var message: String
        public var description: String { "line \(line)\(column.map { ", column \($0)" } ?? ""): \(message)" }

        public init(line: Int, column: Int? = nil, message: String) {
            (self.line, self.column, self.message) = (line, column, message)
        }
    }

    /// `[camera.controls]`: V4L2 controls by their v4l2-ctl names (`cameraControls`), not rows of the settings table.
    public static let controlsTable = "camera.controls"

    /// What about the camera differs from `old` ("size 1280x720 → 640x480", …): empty when a reload can keep
    /// capture running and only change how frames are decoded and tracked.
    public func cameraChanges(from old: ScandConfig) -> [String] {
        func fps(_ f: Int?) -> String { f.map(String.init) ?? "highest" }
        var changes: [String] = []
        if device != old.device { changes.append("device \(old.device) → \(device)") }
        if (width, height) != (old.width, old.height) { changes.append("size \(old.width)x\(old.height) → \(width)x\(height)") }
        if framesPerSecond != old.framesPerSecond { changes.append("fps \(fps(old.framesPerSecond)) → \(fps(framesPerSecond))") }
        if cameraControls != old.cameraControls { changes.append("camera controls") }
        if pixelFormat != old.pixelFormat {
            changes.append("pixel_format \(old.pixelFormat?.description ?? "auto") → \(pixelFormat?.description ?? "auto")")
        }
        if frameTimeoutMilliseconds != old.frameTimeoutMilliseconds {
            changes.append("frame_timeout_ms \(old.frameTimeoutMilliseconds) → \(frameTimeoutMilliseconds)")
        }
        return changes
    }

    public static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else { return nil }
        return (w, h)
    }
}
