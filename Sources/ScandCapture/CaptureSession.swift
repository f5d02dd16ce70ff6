import NIOCore
import ScandCore
import ScandRuntime

/// One camera (or recording) session: an actor that owns the frame source and the device state machine and
/// carries out what the machine decides — open, stream into the frame hand-off, and on a missing or lost
/// camera tear down, announce and retry with backoff. It runs on an event loop of its own, so the source's
/// blocking poll and ioctl never touch Swift's cooperative pool. Between frames it gives the actor up for a
/// moment (`frameBoundary`): a stop or a camera control request, an ordinary call on the actor, is carried
/// out there, at the latest one poll (200 ms) after it was made.
public actor CaptureSession {
    public struct Options: Sendable {
        /// No frame for this long counts as a lost camera.
        public var frameTimeoutMilliseconds = 3000
        public var backoff = DeviceStateMachine.Backoff()
        /// Stop after this many frames (tests, `record`); nil: run until stopped.
        public var maxFrames: Int?
        public var delivery = Delivery.newest
        public init() {}
    }

    /// How frames reach the decoder.
    public enum Delivery: Sendable {
        /// The newest frame, replacing one the decoder has not taken yet (a camera).
        case newest
        /// Every frame: wait for the decoder to take each (lockstep replays).
        case every
    }

    /// When the session last made progress (a poll returned, an open was tried), when a frame last arrived,
    /// and whether the camera is streaming: what the service watchdog looks at. Microseconds, `Monotonic`.
    public struct Activity: Sendable, Equatable {
        public var loop: UInt64 = 0
        public var frame: UInt64 = 0
        public var streaming = false
    }

    /// Its event loop, of its own: every step of it runs there.
    public nonisolated let executor = OwnEventLoop(name: "scand-capture")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }

    private let source: FrameSource
    private let options: Options
    private let onStatus: @Sendable (DeviceStatus) -> Void
    private var machine: DeviceStateMachine
    private var frames = 0
    /// Where frames go: the decoder takes them from there.
    public nonisolated let handOff = FrameHandOff()
    private nonisolated let activityNow = CaptureActivity()
    /// The first stop's reason: the one the DEVICE event gives.
    private var stopReason: String?
    /// The backoff before reopening a camera, cancelled by a stop.
    private var retryWait: Scheduled<Void>?
    /// Camera control requests are answered at once once the session is over.
    private var ended = false
    /// Why a source that is not waited for could not be opened or broke off; nil otherwise.
    public private(set) var failure: CaptureError?
    /// How long one poll may block: the longest a stop or a control request waits.
    private static let pollMilliseconds = 200

    public init(source: sending FrameSource, options: Options = Options(), onStatus: @escaping @Sendable (DeviceStatus) -> Void) {
        self.source = source
        self.options = options
        self.onStatus = onStatus
        self.machine = DeviceStateMachine(device: source.name, backoff: options.backoff)
    }

    /// Read from any thread without waiting for the session (the watchdog).
    public nonisolated var activity: Activity { activityNow.reading }

    /// Asks the session to stop; it tears the source down and finishes the hand-off. Carried out at the next
    /// frame boundary, or at once while it waits to reopen a camera.
    /// - Parameter reason: the message of the DEVICE event that says so.
    public func stop(reason: String = "shutting down") {
        if stopReason == nil { stopReason = reason }
        retryWait?.cancel()
    }

    /// The source's controls now (nil: it has none), or with `settings` set first (now and at every later
    /// open). Carried out between frames: the source is used by the session's thread only.
    public func cameraControls(set settings: [CameraControlSetting]? = nil) throws(CaptureError) -> [CameraControl]? {
        guard !ended else { throw CaptureError(.badControl, path: source.name, detail: "capture has ended") }
        if let settings { return try source.setControls(settings) }
        return try source.controls()
    }

    /// Runs the session to its end: stopped, a recording over, or a source that cannot be used.
    public func run() async {
        // Stopped before it began (a pipeline replaced before it ran): the camera is not opened at all.
        var actions = stopReason.map { machine.stop(reason: $0) } ?? machine.start()
        while true {
            if let reason = stopReason { actions += machine.stop(reason: reason) }
            activityNow.touch(streaming: false)
            var next: [DeviceStateMachine.Action] = []
            for action in actions {
                switch action {
                case .open:
                    do { next += machine.opened(try source.open()) } catch {
                        next += source.waitsForDevice ? machine.openFailed(error.description) : machine.openFailedForGood(error.description)
                        if !source.waitsForDevice { failure = error }
                    }
                case .tearDown:
                    source.close()
                case .emit(let status):
                    onStatus(status)
                case .retry(let delay):
                    await waitToRetry(delay)
                    next += stopReason.map { machine.stop(reason: $0) } ?? machine.retryDue()
                }
            }
            if case .streaming = machine.state, next.isEmpty {
                next += await pump()
            }
            if machine.state == .stopped && next.isEmpty { break }
            actions = next
        }
        ended = true
        handOff.finish()
    }

    /// Moves frames into the hand-off until the stream fails, ends, or a stop or the frame limit arrives.
    private func pump() async -> [DeviceStateMachine.Action] {
        var silentFor = 0
        activityNow.touch(frame: true, streaming: true)
        while stopReason == nil {
            await frameBoundary()
            guard stopReason == nil else { break }
            activityNow.touch(streaming: true)
            do {
                guard let frame = try source.nextFrame(timeoutMilliseconds: Self.pollMilliseconds) else {
                    silentFor += Self.pollMilliseconds
                    // A recording's silence is its recorded pace; only a camera's counts as lost.
                    if source.waitsForDevice && silentFor >= options.frameTimeoutMilliseconds {
                        return machine.streamFailed(
                            CaptureError(
                                .noFrames, path: source.name,
                                detail: "none within \(options.frameTimeoutMilliseconds) ms"
                            ).description)
                    }
                    continue
                }
                silentFor = 0
                activityNow.touch(frame: true, streaming: true)
                switch options.delivery {
                case .newest: handOff.put(frame)
                case .every: await handOff.putWhenTaken(frame)
                }
                frames += 1
                if let max = options.maxFrames, frames >= max { stop() }
            } catch let error where error.kind == .endOfStream {
                return machine.ended()
            } catch let error where !source.waitsForDevice {
                // A recording that breaks off stays broken: reopening it would replay it forever.
                failure = error
                return machine.streamFailedForGood(error.description)
            } catch {
                return machine.streamFailed(error.description)
            }
        }
        return []
    }

    /// Gives the actor up for one turn of its loop: the calls that queued on it during the last poll (a stop,
    /// camera controls) run now, before the next poll blocks the loop again.
    private func frameBoundary() async {
        await onLoop(executor.loop.submit {})
    }

    /// Waits `delay` before reopening the camera, unless a stop cancels the wait; calls on the actor are carried
    /// out meanwhile. Waiting for a camera is progress too.
    private func waitToRetry(_ delay: Duration) async {
        guard stopReason == nil else { return }
        let wait = executor.loop.scheduleTask(in: TimeAmount(delay)) {}
        retryWait = wait
        await onLoop(wait.futureResult)
        retryWait = nil
        activityNow.touch(streaming: false)
    }

    /// Waits for `future`, of the session's own loop, keeping the actor's isolation: the loop resumes the session
    /// itself. NIO's `get()` would resume it through the cooperative pool, and a busy pool held frames back for
    /// seconds.
    private func onLoop(_ future: EventLoopFuture<Void>) async {
        await withUnsafeContinuation(isolation: self) { (done: UnsafeContinuation<Void, Never>) in
            future.whenComplete { _ in done.resume() }
        }
    }
}
