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

    /// - Parameter lossless: wait until the decoder has taken the previous frame instead of dropping it
    ///   (replays whose every frame matters, such as golden tests).
    public func put(_ frame: Frame, lossless: Bool = false) {
        condition.lock()
        defer { condition.unlock() }
        while lossless && waiting != nil && !closed { condition.wait() }
        _counters.captured += 1
        if waiting != nil { _counters.dropped += 1 }
        waiting = frame
        condition.signal()
    }

    public enum Taken: Sendable {
        case frame(Frame)
        /// Nothing arrived within the timeout.
        case idle
        /// Closed and drained.
        case closed
    }

    /// The newest frame, waiting for one; nil once closed and empty.
    public func take() -> Frame? {
        while true {
            switch take(timeoutMilliseconds: nil) {
            case .frame(let f): return f
            case .closed: return nil
            case .idle: continue
            }
        }
    }

    /// The newest frame, waiting at most `timeoutMilliseconds` (nil: no limit).
    public func take(timeoutMilliseconds: Int?) -> Taken {
        condition.lock()
        defer { condition.unlock() }
        let deadline = timeoutMilliseconds.map { Date(timeIntervalSinceNow: Double($0) / 1000) }
        while waiting == nil && !closed {
            if let deadline {
                if !condition.wait(until: deadline) && waiting == nil && !closed { return .idle }
            } else {
                condition.wait()
            }
        }
        guard let frame = waiting else { return .closed }
        waiting = nil
        _counters.taken += 1
        condition.broadcast()  // a lossless producer may be waiting for the slot to empty
        return .frame(frame)
    }

    /// No more frames will come; `take` drains what is waiting, then returns nil.
    public func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
    }
}
