import NIOPosix
import ScandCore
import ScandProtocol
import ScandEventLog

/// What socket requests ask of the rest of the daemon: async calls that return the answer. Each request's
/// call runs as a task of its connection; the event loop never waits for the pipeline.
public struct DaemonControls: Sendable {
    /// STATUS.
    public var status: @Sendable () async -> StatusReport
    /// The Prometheus text exposition.
    public var metrics: @Sendable () async -> String
    /// SNAPSHOT of the next frame, or an ERROR saying why there is none, as a line encoded once for every
    /// client waiting; `isWanted` turns false when the client is gone (nothing is made for it then).
    public var snapshot: @Sendable (_ isWanted: @escaping @Sendable () -> Bool) async -> String
    /// The rect of interest in use.
    public var regionOfInterest: @Sendable () async -> NormalizedRect
    /// Applies and keeps a new rect of interest; ROI once done, or an ERROR.
    public var setRegionOfInterest: @Sendable (NormalizedRect) async -> Event
    /// CONTROLS for the camera, or an ERROR saying why there is none to give.
    public var cameraControls: @Sendable () async -> Event = { .error("this daemon has no camera controls") }
    /// Sets camera controls (and keeps them, if asked); CONTROLS once done, or an ERROR.
    public var setCameraControls: @Sendable (CameraControlChange) async -> Event = { _ in .error("this daemon has no camera controls") }
    /// The numbering and journal of events (VERSION's boot, `since`); nil: events are not numbered.
    public var events: EventLog? = nil
    /// Where `since` replays read the journal: NIO's thread pool, the daemon's one path for blocking file
    /// work (each replay's reads one after another, by its handover).
    public var replays = NIOThreadPool.singleton

    package init(
        status: @escaping @Sendable () async -> StatusReport, metrics: @escaping @Sendable () async -> String,
        snapshot: @escaping @Sendable (_ isWanted: @escaping @Sendable () -> Bool) async -> String,
        regionOfInterest: @escaping @Sendable () async -> NormalizedRect,
        setRegionOfInterest: @escaping @Sendable (NormalizedRect) async -> Event, events: EventLog? = nil
    ) {
        self.status = status
        self.metrics = metrics
        self.snapshot = snapshot
        self.regionOfInterest = regionOfInterest
        self.setRegionOfInterest = setRegionOfInterest
        self.events = events
    }
}
