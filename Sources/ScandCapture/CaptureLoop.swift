import Foundation
import ScandCore
import Synchronization

/// Runs a frame source on a thread of its own (poll and ioctl block; they never run on Swift's
/// cooperative pool), carrying out what the device state machine decides: open, stream into the
/// latest-frame slot, and on a missing or lost camera tear down, announce and retry with backoff.
public final class CaptureLoop: @unchecked Sendable {
    public struct Options: Sendable {
        /// No frame for this long counts as a lost camera.
        public var frameTimeoutMilliseconds = 3000
        public var backoff = DeviceStateMachine.Backoff()
        /// Stop after this many frames (tests, `record`); nil: run until stopped.
        public var maxFrames: Int?
        /// Never drop: wait for the decoder to take each frame (replays for golden tests).
        public var lossless = false
        public init() {}
    }

    private let source: FrameSource
    private let slot: LatestFrameSlot
    private let options: Options
    private let onStatus: @Sendable (DeviceStatus) -> Void
    private let onFrame: (@Sendable (Frame) -> Void)?
    private let condition = NSCondition()
    private var stopRequested = false
    /// The message of the DEVICE event that says capture stopped; the first `stop` sets it.
    private let stopReason = Mutex<String?>(nil)
    private let thread = BlockingThread(name: "scand-capture")
    /// Why a source that is not waited for could not be opened.
    public private(set) var failure: CaptureError?
    private var activity = (loop: UInt64(0), frame: UInt64(0), streaming: false)

    /// When the loop last made progress (a poll returned, an open was tried), when a frame last arrived,
    /// and whether the camera is streaming: what the service watchdog looks at.
    public var lastActivity: (loop: UInt64, frame: UInt64, streaming: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return activity
    }

    private func touch(frame: Bool = false, streaming: Bool) {
        let now = Monotonic.microseconds()
        condition.lock()
        activity.loop = now
        if frame { activity.frame = now }
        activity.streaming = streaming
        condition.unlock()
    }

    public init(source: FrameSource, slot: LatestFrameSlot, options: Options = Options(),
                onStatus: @escaping @Sendable (DeviceStatus) -> Void, onFrame: (@Sendable (Frame) -> Void)? = nil) {
        self.source = source
        self.slot = slot
        self.options = options
        self.onStatus = onStatus
        self.onFrame = onFrame
    }

    public func start() {
        thread.start { [self] in run() }
    }

    /// Asks the loop to stop; it tears the source down and closes the slot.
    /// - Parameter reason: the message of the DEVICE event that says so.
    public func stop(reason: String = "shutting down") {
        stopReason.withLock { if $0 == nil { $0 = reason } }
        condition.lock()
        stopRequested = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until the loop has ended.
    public func wait() {
        thread.wait()
    }

    private var shouldStop: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopRequested
    }

    private var stopping: String { stopReason.withLock { $0 } ?? "shutting down" }

    /// Sleeps for `duration` unless a stop arrives first.
    private func sleep(_ duration: Duration) {
        let c = duration.components
        let deadline = Date(timeIntervalSinceNow: Double(c.seconds) + Double(c.attoseconds) / 1e18)
        condition.lock()
        while !stopRequested && Date() < deadline {
            _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 1)))
            activity.loop = Monotonic.microseconds()  // waiting for a camera is progress too
        }
        condition.unlock()
    }

    private func run() {
        var machine = DeviceStateMachine(device: source.name, backoff: options.backoff)
        var actions = machine.start()
        var frames = 0
        while true {
            if shouldStop { actions += machine.stop(reason: stopping) }
            touch(streaming: false)
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
                    sleep(delay)
                    next += shouldStop ? machine.stop(reason: stopping) : machine.retryDue()
                }
            }
            if case .streaming = machine.state, next.isEmpty {
                next += pump(&machine, frames: &frames)
            }
            if machine.state == .stopped && next.isEmpty { break }
            actions = next
        }
        slot.close()
    }

    /// Moves frames into the slot until the stream fails, ends, or a stop or the frame limit arrives.
    private func pump(_ machine: inout DeviceStateMachine, frames: inout Int) -> [DeviceStateMachine.Action] {
        var silentFor = 0
        let step = 200
        touch(frame: true, streaming: true)
        while !shouldStop {
            touch(streaming: true)
            do {
                guard let frame = try source.nextFrame(timeoutMilliseconds: step) else {
                    silentFor += step
                    // A recording's silence is its recorded pace; only a camera's counts as lost.
                    if source.waitsForDevice && silentFor >= options.frameTimeoutMilliseconds {
                        return machine.streamFailed(CaptureError(.noFrames, path: source.name,
                                                                 detail: "none within \(options.frameTimeoutMilliseconds) ms").description)
                    }
                    continue
                }
                silentFor = 0
                touch(frame: true, streaming: true)
                onFrame?(frame)
                slot.put(frame, lossless: options.lossless)
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
}
