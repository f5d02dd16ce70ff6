import NIOPosix
import ScandCore
import ScandProtocol
import ScandEventLog

/// What socket requests ask of the rest of the daemon. Answers that take time arrive through a callback,
/// on any thread: the event loop never waits for the pipeline.
public struct DaemonControls: Sendable {
    /// STATUS.
    public var status: @Sendable () -> StatusReport
    /// The Prometheus text exposition.
    public var metrics: @Sendable () -> String
    /// SNAPSHOT of the next frame, or an ERROR saying why there is none, as a line encoded once for every
    /// client waiting; `isWanted` turns false when the client is gone (nothing is made for it then).
    public var snapshot: @Sendable (_ isWanted: @escaping @Sendable () -> Bool, _ answer: @escaping @Sendable (String) -> Void) -> Void
    /// The rect of interest in use.
    public var regionOfInterest: @Sendable () -> NormalizedRect
    /// Applies and keeps a new rect of interest; answers ROI, or an ERROR.
    public var setRegionOfInterest: @Sendable (NormalizedRect, _ answer: @escaping @Sendable (Event) -> Void) -> Void
    /// CONTROLS for the camera, or an ERROR saying why there is none to give.
    public var cameraControls: @Sendable (_ answer: @escaping @Sendable (Event) -> Void) -> Void = { answer in
        answer(.error("this daemon has no camera controls"))
    }
    /// Sets camera controls (and keeps them, if asked); answers CONTROLS, or an ERROR.
    public var setCameraControls: @Sendable (CameraControlChange, _ answer: @escaping @Sendable (Event) -> Void) -> Void = { _, answer in
        answer(.error("this daemon has no camera controls"))
    }
    /// The numbering and journal of events (VERSION's boot, `since`); nil: events are not numbered.
    public var events: EventLog? = nil
    /// Where `since` replays read the journal: NIO's thread pool, the daemon's one path for blocking file
    /// work (each replay's reads one after another, by its handover).
    public var replays = NIOThreadPool.singleton

    package init(
        status: @escaping @Sendable () -> StatusReport, metrics: @escaping @Sendable () -> String,
        snapshot: @escaping @Sendable (_ isWanted: @escaping @Sendable () -> Bool, _ answer: @escaping @Sendable (String) -> Void) -> Void,
        regionOfInterest: @escaping @Sendable () -> NormalizedRect,
        setRegionOfInterest: @escaping @Sendable (NormalizedRect, _ answer: @escaping @Sendable (Event) -> Void) -> Void, events: EventLog? = nil
    ) {
        self.status = status
        self.metrics = metrics
        self.snapshot = snapshot
        self.regionOfInterest = regionOfInterest
        self.setRegionOfInterest = setRegionOfInterest
        self.events = events
    }
}
