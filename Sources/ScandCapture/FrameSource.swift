import ScandCore

/// Where frames come from: a V4L2 camera or a recording. Used by one thread at a time; every call may block.
public protocol FrameSource: AnyObject {
    /// The device path or file name, for events and logs.
    var name: String { get }
    /// A camera that cannot be opened may appear later and is waited for; a recording that cannot be
    /// opened will not, and ends the session.
    var waitsForDevice: Bool { get }
    /// Opens and starts streaming; returns the format frames will have.
    func open() throws(CaptureError) -> FrameFormat
    /// The next frame, nil when none came within `timeoutMilliseconds`. Throws `.endOfStream` when a
    /// recording is over, `.disconnected` when the camera went away.
    func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame?
    /// Stops streaming and releases everything; the source may be opened again.
    func close()
    /// From now on, captures each frame's luma alone into memory from `allocate` (the decoder's shared
    /// memory, read there by the decoder processes) rather than the whole frame into an array. A source
    /// that cannot ignores it.
    func captureLuma(into allocate: @escaping FrameMemoryAllocator)
    /// The source's controls with their values now; nil for a source that has none (a recording).
    /// Throws when the source is not open.
    func controls() throws(CaptureError) -> [CameraControl]?
    /// Sets `settings` in their order now and at every later open (after a replug too), on top of those it
    /// was made with; returns the controls after. Throws naming a control the camera does not take.
    func setControls(_ settings: [CameraControlSetting]) throws(CaptureError) -> [CameraControl]
}

extension FrameSource {
    public func captureLuma(into allocate: @escaping FrameMemoryAllocator) {}
    public func controls() throws(CaptureError) -> [CameraControl]? { nil }
    public func setControls(_ settings: [CameraControlSetting]) throws(CaptureError) -> [CameraControl] {
        throw CaptureError(.badControl, path: name, detail: "a recording has no camera controls")
    }
}
