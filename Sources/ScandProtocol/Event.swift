import Foundation
import ScandCore

/// Everything scand writes for a client, one case per `class` on the wire. `EventEncoder` is the one place
/// that turns them into JSON; filters and tests read the typed fields.
public enum Event: Sendable, Equatable {
    case version(VersionBanner)
    case device(DeviceStatus)
    /// A code confirmed by the tracker: once per appearance.
    case scan(TrackedCode)
    /// New corners of a code in view.
    case update(TrackedCode)
    /// A code not seen for the lost-after time.
    case lost(TrackedCode)
    /// A code found in a still image (`scand scan`).
    case imageScan(ImageCode)
    case stats(device: String, counters: FrameCounters)
    case watch(ClientRequest.Watch)
    case status(StatusReport)
    case error(String)
    /// `scand devices --json`: the video devices of this machine.
    case devices([CameraInfo])
    /// The newest frame, downscaled (the answer to `?SNAPSHOT;`).
    case snapshot(Snapshot)
    /// The rect of interest in use (the answer to `?ROI`).
    case regionOfInterest(NormalizedRect)
    /// The camera's controls (answer to `?CONTROLS`).
    case cameraControls(CameraControlsReport)
    /// Prometheus's text exposition of the daemon's metrics (the answer to `?METRICS;`).
    case metrics(String)
    /// The event journal went off, came back, or was replaced by a new one (numbered, like DEVICE).
    case journal(JournalNotice)

    /// The value of `class`.
    public enum Class: String, Sendable, CaseIterable, Comparable {
        case version = "VERSION", device = "DEVICE", scan = "SCAN", update = "UPDATE", lost = "LOST", stats = "STATS"
        case watch = "WATCH", status = "STATUS", error = "ERROR", devices = "DEVICES", snapshot = "SNAPSHOT", regionOfInterest = "ROI"
        case metrics = "METRICS", journal = "JOURNAL", cameraControls = "CONTROLS"

        /// Classes a `?WATCH` may ask for by name.
        public static let watchable: [Class] = [.device, .journal, .lost, .scan, .stats, .update, .version, .watch]

        public static func < (a: Class, b: Class) -> Bool { a.rawValue < b.rawValue }
    }

    public var eventClass: Class {
        switch self {
        case .version: .version
        case .device: .device
        case .scan, .imageScan: .scan
        case .update: .update
        case .lost: .lost
        case .stats: .stats
        case .watch: .watch
        case .status: .status
        case .error: .error
        case .devices: .devices
        case .snapshot: .snapshot
        case .regionOfInterest: .regionOfInterest
        case .cameraControls: .cameraControls
        case .metrics: .metrics
        case .journal: .journal
        }
    }

    /// The format of the code an event is about, for subscribers' format filters; nil for the others.
    public var format: BarcodeFormat? {
        switch self {
        case .scan(let c), .update(let c), .lost(let c): c.detection.format
        case .imageScan(let c): c.detection.format
        default: nil
        }
    }

    /// The encoded line, without its newline.
    public var line: String { EventEncoder.line(self) }
}

/// VERSION: gpsd's banner, first on stdout and first to every socket client.
public struct VersionBanner: Sendable, Equatable {
    public var release: String
    /// The event schema's version: the major number changes when a field changes meaning or goes away, the
    /// minor when fields or classes are added.
    public var protoMajor: Int
    public var protoMinor: Int
    public var zxing: String

    public init(release: String, protoMajor: Int, protoMinor: Int, zxing: String) {
        self.release = release
        self.protoMajor = protoMajor
        self.protoMinor = protoMinor
        self.zxing = zxing
    }
}

/// A code the tracker reports (SCAN, UPDATE, LOST).
public struct TrackedCode: Sendable, Equatable {
    public var id: Int
    public var device: String
    public var time: Date
    /// The driver's sequence number of the frame it was seen in; nil for a LOST decided between frames.
    public var frame: UInt64?
    public var detection: Detection
    /// The whole frame, for normalized corners (0 when unknown).
    public var frameWidth: Int
    public var frameHeight: Int
    /// Capture to event, for SCAN.
    public var latencyMilliseconds: Double?

    public init(
        id: Int, device: String, time: Date, frame: UInt64?, detection: Detection, frameWidth: Int, frameHeight: Int,
        latencyMilliseconds: Double? = nil
    ) {
        self.id = id
        self.device = device
        self.time = time
        self.frame = frame
        self.detection = detection
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.latencyMilliseconds = latencyMilliseconds
    }
}

/// A code found in an image file.
public struct ImageCode: Sendable, Equatable {
    public var file: String
    public var detection: Detection
    public var imageWidth: Int
    public var imageHeight: Int

    public init(file: String, detection: Detection, imageWidth: Int, imageHeight: Int) {
        self.file = file
        self.detection = detection
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
    }
}

/// The live pipeline's frame and code counters, as STATS and STATUS report them.
public struct FrameCounters: Sendable, Equatable {
    public var captured = 0
    /// Frames replaced while the decoder was busy.
    public var dropped = 0
    public var decoded = 0
    /// Frames not decoded because the scene had not changed since a decode that found nothing.
    public var skippedStatic = 0
    /// Frames with a decoder pass that crashed, hung or was refused.
    public var failed = 0
    public var codes = 0
    public var scans = 0
    public var decodeMillisecondsMean = 0.0
    public var latencyP50Milliseconds: Double?
    public var latencyP99Milliseconds: Double?
    public var workerRestarts = 0
    /// Compressed (MJPEG) frames that were corrupt or cut short, and skipped.
    public var corrupt = 0
    /// The rect of interest's sharpness (`FocusMeasure`) in a recent frame: higher is sharper.
    public var focusSharpness: Double?

    public init() {}
}

/// STATUS: where the camera stands, the frame counters and the subscribers.
public struct StatusReport: Sendable, Equatable {
    public var device: DeviceStatus?
    public var counters: FrameCounters
    public var clients: ClientCounters
    public var stdoutDropped: Int
    /// The rect of interest decoded.
    public var regionOfInterest: NormalizedRect?
    public var journal: JournalStatus?

    public init(
        device: DeviceStatus?, counters: FrameCounters, clients: ClientCounters, stdoutDropped: Int,
        regionOfInterest: NormalizedRect? = nil, journal: JournalStatus? = nil
    ) {
        self.device = device
        self.counters = counters
        self.clients = clients
        self.stdoutDropped = stdoutDropped
        self.regionOfInterest = regionOfInterest
        self.journal = journal
    }
}

/// STATUS's `journal`: what the event journal holds (nil span: nothing yet), or why it is off; and the boot
/// the daemon numbers its events under.
public enum JournalStatus: Sendable, Equatable {
    /// `journal`: the journal's id; `notJournaled`: the events of the last time it was off.
    case on(JournalSpan?, boot: String, journal: String? = nil, notJournaled: JournalGap? = nil)
    /// `notJournaled`: the events numbered since it went off; `retryIn`: seconds to the next attempt.
    case off(reason: String, boot: String, notJournaled: JournalGap? = nil, retryIn: Double? = nil)
}

/// Events numbered while the journal was off (seq `first`…`last`): published live, never journaled, so a
/// `since` cannot replay them.
public struct JournalGap: Sendable, Equatable {
    public var first: Int
    public var last: Int

    public init(first: Int, last: Int) {
        self.first = first
        self.last = last
    }

    public var events: Int { last - first + 1 }
}

/// JOURNAL: the journal went `off` (why), or is `on` again (its id, the events it missed, and why a new
/// journal was started if it was).
public struct JournalNotice: Sendable, Equatable {
    public enum State: String, Sendable {
        case on, off
    }

    public var state: State
    /// The id of the journal in use (new when a damaged or removed journal was replaced).
    public var journal: String?
    public var notJournaled: JournalGap?
    public var message: String

    public init(state: State, journal: String? = nil, notJournaled: JournalGap? = nil, message: String) {
        self.state = state
        self.journal = journal
        self.notJournaled = notJournaled
        self.message = message
    }
}

/// A downscaled copy of the newest frame, encoded as an image, for a preview.
public struct Snapshot: Sendable, Equatable {
    /// The driver's sequence number of the frame.
    public var frame: UInt64
    public var width: Int
    public var height: Int
    /// The frame as decoded (after rotation and mirroring), which normalized corners refer to.
    public var sourceWidth: Int
    public var sourceHeight: Int
    public var mimeType: String
    public var data: [UInt8]
    /// The ids of the scanned codes read in the newest frame decoded before this one (none: nothing read):
    /// a page hides an outline whose code left the frame before its LOST, `lost_after` later. nil: not said.
    public var inView: [Int]?

    public init(
        frame: UInt64, width: Int, height: Int, sourceWidth: Int, sourceHeight: Int, mimeType: String, data: [UInt8], inView: [Int]? = nil
    ) {
        self.inView = inView
        self.frame = frame
        self.width = width
        self.height = height
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.mimeType = mimeType
        self.data = data
    }
}

/// Socket subscribers, as STATUS reports them.
public struct ClientCounters: Sendable, Equatable {
    public var connected = 0
    public var watching = 0
    /// Clients disconnected for falling behind.
    public var droppedSlow = 0
    /// Clients refused because `maxClients` were connected, or `maxClientsPerUID` of the same user.
    public var refused = 0
    /// Clients closed because they sent no request within the request timeout.
    public var timedOut = 0
    public var totalConnections = 0

    public init() {}
}
