import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The daemon's stdout (one more subscriber) and stderr: lines wait in a bounded queue written out by a NIO
/// thread pool of its own (one thread: a write(2) to a pipe nobody reads blocks for as long, and must hold
/// neither the cooperative pool, an event loop nor the daemon's shared pool), so a stdout or stderr nobody
/// drains never stalls capture, the socket or shutdown. A line that finds the queue full is dropped and
/// counted; the first drop is reported, once.
public final class QueuedWriter<Line: Sendable>: Sendable {
    private struct State {
        var lines = CircularBuffer<Line>()
        /// The thread is writing the queue out: it takes lines until none is left.
        var writing = false
        var dropped = 0
    }
    private let state = NIOLockedValueBox(State())
    private let thread = NIOThreadPool(numberOfThreads: 1)
    private let write: @Sendable (Line) -> Void
    private let limit: Int
    private let onFirstDrop: @Sendable () -> Void

    /// - Parameters: limit: lines that may wait; write: blocking, one whole line.
    public init(limit: Int, write: @escaping @Sendable (Line) -> Void, onFirstDrop: @escaping @Sendable () -> Void) {
        self.limit = max(1, limit)
        self.write = write
        self.onFirstDrop = onFirstDrop
        thread.start()
    }

    /// The thread ends once its queue is written out (never, on a stdout nobody reads: it is the process's).
    deinit { thread.shutdownGracefully { _ in } }

    /// Queues a line; never blocks.
    public func publish(_ line: Line) {
        let outcome: (start: Bool, firstDrop: Bool) = state.withLockedValue { s in
            guard s.lines.count < limit else {
                s.dropped += 1
                return (false, s.dropped == 1)
            }
            s.lines.append(line)
            defer { s.writing = true }
            return (!s.writing, false)
        }
        if outcome.start {
            let state = state, write = write
            // The queue and the writer, not the subscriber: a line is written even as the subscriber goes.
            thread.submit { _ in
                while let line = state.withLockedValue({ s -> Line? in
                    if s.lines.isEmpty { s.writing = false }
                    return s.lines.popFirst()
                }) {
                    write(line)
                }
            }
        }
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
