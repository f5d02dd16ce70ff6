import Foundation
import NIOCore
import ScandCore
import NIOConcurrencyHelpers

/// stdout as one more subscriber: events wait in a bounded queue that a thread of its own writes out, so a
/// stdout nobody drains (a full pipe) never stalls capture, the socket or shutdown. A line that finds the
/// queue full is dropped and counted; the first drop is logged, once.
public final class StdoutSubscriber: Sendable {
    private struct State {
        var lines = CircularBuffer<String>()
        /// A line taken from the queue is being written.
        var writing = false
        var dropped = 0
    }
    private let state = NIOLockedValueBox(State())
    /// One signal per queued line.
    private let queued = DispatchSemaphore(value: 0)
    private let limit: Int
    private let onFirstDrop: @Sendable () -> Void

    /// - Parameters: limit: lines that may wait; write: blocking, one whole line (without its newline).
    public init(limit: Int, write: @escaping @Sendable (String) -> Void, onFirstDrop: @escaping @Sendable () -> Void) {
        self.limit = max(1, limit)
        self.onFirstDrop = onFirstDrop
        // The writer lives as long as the process: it may be blocked in write(2) on a stdout nobody reads.
        let writer = Thread { [self] in writeLoop(write) }
        writer.name = "scand-stdout"
        writer.start()
    }

    private func writeLoop(_ write: (String) -> Void) {
        while true {
            queued.wait()
            guard
                let line = state.withLockedValue({ s -> String? in
                    s.writing = !s.lines.isEmpty
                    return s.lines.popFirst()
                })
            else { continue }
            write(line)
            state.withLockedValue { $0.writing = false }
        }
    }

    /// Queues a line (without its newline); never blocks.
    public func publish(_ line: String) {
        let outcome: (queued: Bool, firstDrop: Bool) = state.withLockedValue { s in
            guard s.lines.count < limit else {
                s.dropped += 1
                return (false, s.dropped == 1)
            }
            s.lines.append(line)
            return (true, false)
        }
        if outcome.queued { queued.signal() }
        if outcome.firstDrop { onFirstDrop() }
    }

    /// Lines dropped because stdout was not read.
    public var dropped: Int { state.withLockedValue { $0.dropped } }

    /// Waits until every queued line is written, for at most `limit` (a stdout nobody reads never empties).
    /// Returns whether it emptied. Suspends between looks: the daemon's shutdown runs on the cooperative pool.
    @discardableResult
    public func drain<C: Clock<Duration>>(within limit: Duration, clock: C = ContinuousClock()) async -> Bool {
        let deadline = clock.now.advanced(by: limit)
        while clock.now < deadline {
            if state.withLockedValue({ $0.lines.isEmpty && !$0.writing }) { return true }
            try? await clock.sleep(for: .milliseconds(5))
        }
        return state.withLockedValue { $0.lines.isEmpty && !$0.writing }
    }
}
