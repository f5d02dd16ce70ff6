import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The daemon's stdout (one more subscriber) and stderr: lines wait in a bounded queue that a task writes out
/// through a NIO thread pool of its own (one thread: a write(2) to a pipe nobody reads blocks for as long, and
/// must hold neither the cooperative pool, an event loop nor the daemon's shared pool), so a stdout or stderr
/// nobody drains never stalls capture, the socket or shutdown. A line that finds the queue full is dropped
/// and counted; the first drop is reported, once.
public final class QueuedWriter<Line: Sendable>: Sendable {
    private struct State {
        var lines = CircularBuffer<Line>()
        /// A line taken from the queue is being written.
        var writing = false
        var dropped = 0
    }
    private let state = NIOLockedValueBox(State())
    /// Tells the writer that lines wait; finished when the subscriber goes.
    private let wake: AsyncStream<Void>.Continuation
    private let limit: Int
    private let onFirstDrop: @Sendable () -> Void

    /// - Parameters: limit: lines that may wait; write: blocking, one whole line.
    public init(limit: Int, write: @escaping @Sendable (Line) -> Void, onFirstDrop: @escaping @Sendable () -> Void) {
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
                while let line = state.withLockedValue({ s -> Line? in
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

    /// Queues a line; never blocks.
    public func publish(_ line: Line) {
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

    /// Lines dropped because they were not read.
    public var dropped: Int { state.withLockedValue { $0.dropped } }

    /// Waits until every queued line is written, for at most `limit` (a pipe nobody reads never empties).
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

/// stdout as one more subscriber: encoded event lines, without their newline.
public typealias StdoutSubscriber = QueuedWriter<String>
