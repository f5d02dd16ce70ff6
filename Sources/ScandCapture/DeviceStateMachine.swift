import ScandCore

/// What the camera is doing, as a state machine that returns actions (swift-nio style) and does no I/O.
/// The capture session feeds it what happened and carries out what it returns; tests drive it directly.
///
/// A camera that is missing, busy or unplugged is waited for with a capped exponential backoff: the
/// daemon never exits for it (kiosks boot before USB enumerates).
public struct DeviceStateMachine: Sendable {
    public enum State: Sendable, Equatable {
        case idle
        case opening
        case streaming(FrameFormat)
        case waiting(attempt: Int)
        case stopped
    }

    public enum Action: Sendable, Equatable {
        case open
        case tearDown
        case emit(DeviceStatus)
        case retry(after: Duration)
    }

    public struct Backoff: Sendable, Equatable {
        public var initial: Duration
        public var maximum: Duration
        public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(5)) {
            self.initial = initial
            self.maximum = maximum
        }

        /// initial · 2^(attempt-1), capped.
        public func delay(attempt: Int) -> Duration {
            var d = initial
            for _ in 1..<max(1, attempt) {
                d = d * 2
                if d >= maximum { return maximum }
            }
            return min(d, maximum)
        }
    }

    public private(set) var state: State = .idle
    public let device: String
    public var backoff: Backoff
    private var failures = 0
    private var lastReason: String?

    public init(device: String, backoff: Backoff = Backoff()) {
        self.device = device
        self.backoff = backoff
    }

    public mutating func start() -> [Action] {
        guard state == .idle else { return [] }
        state = .opening
        return [.open]
    }

    public mutating func opened(_ format: FrameFormat) -> [Action] {
        guard state == .opening else { return [.tearDown] }
        state = .streaming(format)
        failures = 0
        lastReason = nil
        return [.emit(DeviceStatus(device: device, state: .streaming, format: format))]
    }

    /// The camera could not be opened or configured. The first failure and every change of reason are
    /// announced; repeats of the same reason are not (a kiosk waiting an hour gets one event).
    public mutating func openFailed(_ reason: String) -> [Action] {
        guard state == .opening else { return [] }
        failures += 1
        state = .waiting(attempt: failures)
        let delay = backoff.delay(attempt: failures)
        var actions: [Action] = [.tearDown]
        if reason != lastReason {
            actions.append(.emit(DeviceStatus(device: device, state: .waiting, reason: reason, retryIn: delay)))
        }
        lastReason = reason
        actions.append(.retry(after: delay))
        return actions
    }

    /// The source cannot be opened and will not become available (a recording that is missing or
    /// malformed): the session ends with the reason.
    public mutating func openFailedForGood(_ reason: String) -> [Action] {
        guard state == .opening else { return [] }
        state = .stopped
        return [.tearDown, .emit(DeviceStatus(device: device, state: .stopped, reason: reason, failed: true))]
    }

    /// Streaming stopped: unplugged (ENODEV/EIO), no frame within the timeout, or another error.
    public mutating func streamFailed(_ reason: String) -> [Action] {
        guard case .streaming = state else { return [] }
        failures = 1
        state = .waiting(attempt: 1)
        lastReason = reason
        let delay = backoff.delay(attempt: 1)
        return [.tearDown, .emit(DeviceStatus(device: device, state: .lost, reason: reason, retryIn: delay)), .retry(after: delay)]
    }

    /// Streaming broke in a way that waiting will not mend (a recording that breaks off): the session ends
    /// with the reason, never reopened like a camera.
    public mutating func streamFailedForGood(_ reason: String) -> [Action] {
        guard case .streaming = state else { return [] }
        state = .stopped
        return [.tearDown, .emit(DeviceStatus(device: device, state: .stopped, reason: reason, failed: true))]
    }

    public mutating func retryDue() -> [Action] {
        guard case .waiting = state else { return [] }
        state = .opening
        return [.open]
    }

    /// The source has no more frames (a replay ended).
    public mutating func ended() -> [Action] {
        guard state != .stopped else { return [] }
        state = .stopped
        return [.tearDown, .emit(DeviceStatus(device: device, state: .stopped, reason: "end of recording"))]
    }

    /// - Parameter reason: why, for the DEVICE event ("shutting down"; a reload says what changed).
    public mutating func stop(reason: String = "shutting down") -> [Action] {
        guard state != .stopped else { return [] }
        let wasOpen: Bool
        if case .streaming = state { wasOpen = true } else { wasOpen = false }
        state = .stopped
        return (wasOpen ? [.tearDown] : []) + [.emit(DeviceStatus(device: device, state: .stopped, reason: reason))]
    }
}
