import ScandCore
import NIOConcurrencyHelpers

/// One camera (or recording) session: an actor that owns the frame source and the device state machine and
/// carries out what the machine decides — open, stream into the frame hand-off, and on a missing or lost
/// camera tear down, announce and retry with backoff. It runs on an event loop of its own, so the source's
/// blocking poll and ioctl never touch Swift's cooperative pool; `stop` is honoured within one poll.
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
    /// The source's name, for answers given off its thread.
    private nonisolated let sourceName: String
    private let options: Options
    private let onStatus: @Sendable (DeviceStatus) -> Void
    private var machine: DeviceStateMachine
    private var frames = 0
    /// Where frames go: the decoder takes them from there.
    public nonisolated let handOff = FrameHandOff()
    /// Set from any thread by `stop`; the first stop's reason is the one the DEVICE event gives.
    private let stopRequest = NIOLockedValueBox<String?>(nil)
    private let activityNow = NIOLockedValueBox(Activity())
    private let failureFound = NIOLockedValueBox<CaptureError?>(nil)
    /// Camera control requests from any thread, carried out on the session's thread between frames (the
    /// source is used by one thread only); nil once the session has ended, when they are answered at once.
    private let controlRequests = NIOLockedValueBox<[ControlRequest]?>([])

    /// What to do with the controls (nil: only list them), and where the answer goes.
    struct ControlRequest {
        var settings: [CameraControlSetting]?
        var answer: @Sendable (Result<[CameraControl]?, CaptureError>) -> Void
    }
    /// How long one poll may block: the longest a stop waits.
    private static let pollMilliseconds = 200

    public init(source: sending FrameSource, options: Options = Options(), onStatus: @escaping @Sendable (DeviceStatus) -> Void) {
        self.sourceName = source.name
        self.source = source
        self.options = options
        self.onStatus = onStatus
        self.machine = DeviceStateMachine(device: source.name, backoff: options.backoff)
    }

    public nonisolated var activity: Activity { activityNow.withLockedValue { $0 } }

    /// Why a source that is not waited for could not be opened or broke off; nil otherwise.
    public nonisolated var failure: CaptureError? { failureFound.withLockedValue { $0 } }

    /// Asks the session to stop; it tears the source down and finishes the hand-off.
    /// - Parameter reason: the message of the DEVICE event that says so.
    public nonisolated func stop(reason: String = "shutting down") {
        stopRequest.withLockedValue { if $0 == nil { $0 = reason } }
    }

    private var stopReason: String? { stopRequest.withLockedValue { $0 } }

    /// The source's controls now (nil: it has none), or with `settings` set first (now and at every later
    /// open); `answer` is called on the session's thread within a poll, or at once when the session is over.
    public nonisolated func cameraControls(
        set settings: [CameraControlSetting]? = nil, answer: @escaping @Sendable (Result<[CameraControl]?, CaptureError>) -> Void
    ) {
        let queued = controlRequests.withLockedValue { queue in
            guard queue != nil else { return false }
            queue!.append(ControlRequest(settings: settings, answer: answer))
            return true
        }
        if !queued { answer(.failure(CaptureError(.badControl, path: sourceName, detail: "capture has ended"))) }
    }

    /// Carries out the control requests that arrived; `ended`: none will be taken after these.
    private func serveControlRequests(ended: Bool = false) {
        let requests = controlRequests.withLockedValue { queue in
            defer { queue = ended ? nil : [] }
            return queue ?? []
        }
        for r in requests {
            if ended {
                r.answer(.failure(CaptureError(.badControl, path: source.name, detail: "capture has ended")))
                continue
            }
            do throws(CaptureError) {
                if let settings = r.settings {
                    r.answer(.success(try source.setControls(settings)))
                } else {
                    r.answer(.success(try source.controls()))
                }
            } catch {
                r.answer(.failure(error))
            }
        }
    }

    /// Runs the session to its end: stopped, a recording over, or a source that cannot be used.
    public func run() async {
        var actions = machine.start()
        while true {
            if let reason = stopReason { actions += machine.stop(reason: reason) }
            touch(streaming: false)
            var next: [DeviceStateMachine.Action] = []
            for action in actions {
                switch action {
                case .open:
                    do { next += machine.opened(try source.open()) } catch {
                        next += source.waitsForDevice ? machine.openFailed(error.description) : machine.openFailedForGood(error.description)
                        if !source.waitsForDevice { failureFound.withLockedValue { $0 = error } }
                    }
                case .tearDown:
                    source.close()
                case .emit(let status):
                    onStatus(status)
                case .retry(let delay):
                    await sleep(delay)
                    next += stopReason.map { machine.stop(reason: $0) } ?? machine.retryDue()
                }
            }
            if case .streaming = machine.state, next.isEmpty {
                next += await pump()
            }
            serveControlRequests()
            if machine.state == .stopped && next.isEmpty { break }
            actions = next
        }
        serveControlRequests(ended: true)
        handOff.finish()
    }

    /// Moves frames into the hand-off until the stream fails, ends, or a stop or the frame limit arrives.
    private func pump() async -> [DeviceStateMachine.Action] {
        var silentFor = 0
        touch(frame: true, streaming: true)
        while stopReason == nil {
            touch(streaming: true)
            serveControlRequests()
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
                touch(frame: true, streaming: true)
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
                failureFound.withLockedValue { $0 = error }
                return machine.streamFailedForGood(error.description)
            } catch {
                return machine.streamFailed(error.description)
            }
        }
        return []
    }

    private func touch(frame: Bool = false, streaming: Bool) {
        let now = Monotonic.microseconds()
        activityNow.withLockedValue { a in
            a.loop = now
            if frame { a.frame = now }
            a.streaming = streaming
        }
    }

    /// Waits `duration` before a retry unless a stop arrives first; waiting for a camera is progress too.
    private func sleep(_ duration: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        while stopReason == nil && clock.now < deadline {
            try? await Task.sleep(for: min(deadline - clock.now, .milliseconds(50)))
            touch(streaming: false)
            serveControlRequests()
        }
    }
}
