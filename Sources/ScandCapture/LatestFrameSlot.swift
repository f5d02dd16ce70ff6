import Foundation
import ScandCore

/// Frame counters of one capture session.
public struct CaptureCounters: Sendable, Equatable {
    /// Frames that came from the source.
    public var captured = 0
    /// Frames replaced by a newer one before the decoder took them.
    public var dropped = 0
    /// Frames the decoder took.
    public var taken = 0
    public init() {}
}

/// Hands the newest frame to the decoder. While the decoder is busy, each new frame replaces the one
/// waiting, which is counted as dropped: the decoder always works on the latest picture, never a backlog.
public final class LatestFrameSlot: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Frame?
    private var closed = false
    private var _counters = CaptureCounters()

    public init() {}

    public var counters: CaptureCounters {
        condition.lock()
        defer { condition.unlock() }
        return _counters
    }

    public func put(_ frame: Frame) {
        condition.lock()
        defer { condition.unlock() }
        _counters.captured += 1
        if waiting != nil { _counters.dropped += 1 }
        waiting = frame
        condition.signal()
    }

    /// The newest frame, waiting for one; nil once closed and empty.
    public func take() -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        while waiting == nil && !closed { condition.wait() }
        guard let frame = waiting else { return nil }
        waiting = nil
        _counters.taken += 1
        return frame
    }

    /// No more frames will come; `take` drains what is waiting, then returns nil.
    public func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
    }
}
