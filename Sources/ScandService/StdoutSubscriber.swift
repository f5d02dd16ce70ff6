import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// stdout as one more subscriber: events wait in a bounded queue that a task writes out through a NIO thread
/// pool of its own (one thread: a write(2) to a pipe nobody reads blocks for as long, and must hold neither
/// the cooperative pool nor the daemon's shared pool), so a stdout nobody drains never stalls capture, the
/// socket or shutdown. A line that finds the queue full is dropped and counted; the first drop is logged, once.
public final class StdoutSubscriber: Sendable {
    private struct State {
        var lines = CircularBuffer<String>()
        /// A line taken from the queue is being written.
        var writing = false
        var dropped = 0
    }
    private let state = NIOLockedValueBox(State())
    /// Tells the writer that lines wait; finished when the subscriber goes.
    private let wake: AsyncStream<Void>.Continuation
    private let limit: Int
    private let onFirstDrop: @Sendable () -> Void

    /// - Parameters: limit: lines that may wait; write: blocking, one whole line (without its newline).
    public init(limit: Int, write: @escaping @Sendable (String) -> Void, onFirstDrop: @escaping @Sendable () -> Void) {
        self.limit = max(1, limit)
        self.onFirstDrop = onFirstDrop
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        let state = state
        // The writer holds the queue, not the subscriber: once that is gone, the writer ends with its thread
        // (unless blocked on a stdout nobody reads: then it lasts as long as the process).
        Task {
            let thread = NIOThreadPool(numberOfThreads: 1)
            thread.start()
            for await _ in wakes {
                while let line = state.withLockedValue({ s -> String? in
                    s.writing = !s.lines.isEmpty
                    return s.lines.popFirst()
                }) {
                    _ = try? await thread.runIfActive { write(line) }
                    state.withLockedValue { $0.writing = false }
                }
            }
            try? await thread.shutdownGracefully()
        }
    }

    deinit { wake.finish() }

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
        if outcome.queued { wake.yield() }
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
