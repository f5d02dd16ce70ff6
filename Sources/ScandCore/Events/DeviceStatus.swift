/// The camera's state as the DEVICE event reports it.
public struct DeviceStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        case streaming, waiting, lost, stopped
    }

    public var device: String
    public var state: State
    public var format: FrameFormat?
    public var reason: String?
    public var retryIn: Duration?
    /// Stopped for good by a fault (a recording that cannot be played), not by a stop or a clean end.
    public var failed: Bool

    public init(device: String, state: State, format: FrameFormat? = nil, reason: String? = nil, retryIn: Duration? = nil, failed: Bool = false) {
        self.device = device
        self.state = state
        self.format = format
        self.reason = reason
        self.retryIn = retryIn
        self.failed = failed
    }
}
