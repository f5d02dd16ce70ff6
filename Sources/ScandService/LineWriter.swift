import ScandRuntime
import Synchronization

/// The daemon's stdout (one more subscriber) and stderr: lines wait in a bounded stream of their own, written
/// out by an actor on an event loop of its own (a write(2) to a pipe nobody reads blocks for as long, and must
/// hold neither the cooperative pool, the event runtime nor a loop the socket shares), so a stdout or stderr
/// nobody drains never stalls capture, the socket or shutdown. A line that finds the stream full is dropped
/// and counted; the first drop is reported, once.
public final class LineWriter<Line: Sendable>: Sendable {
    private let lines: AsyncStream<Line>.Continuation
    private let writer: Writer
    private let onFirstDrop: @Sendable () -> Void

    /// - Parameters: limit: lines that may wait; write: blocking, one whole line; name: the writer thread's.
    public init(
        limit: Int, name: String = "scand-stdout", write: @escaping @Sendable (Line) -> Void,
        onFirstDrop: @escaping @Sendable () -> Void
    ) {
        let (stream, lines) = AsyncStream.makeStream(of: Line.self, bufferingPolicy: .bufferingOldest(max(1, limit)))
        let writer = Writer(name: name, write: write)
        self.lines = lines
        self.writer = writer
        self.onFirstDrop = onFirstDrop
        // Ends once the stream is finished and written out (never, on a stdout nobody reads: it is the process's).
        // Hops straight onto the writer's loop: a busy cooperative pool cannot delay the start.
        Task.immediate { await writer.run(stream) }
    }

    deinit { lines.finish() }

    /// Queues a line; never blocks.
    public func publish(_ line: Line) {
        // Counted before it can be written, so that `pending` never goes below what waits.
        writer.pending.add(1, ordering: .relaxed)
        switch lines.yield(line) {
        case .enqueued: return
        case .terminated: writer.pending.subtract(1, ordering: .relaxed)
        case .dropped:
            writer.pending.subtract(1, ordering: .relaxed)
            if writer.dropped.add(1, ordering: .relaxed).newValue == 1 { onFirstDrop() }
        @unknown default: writer.pending.subtract(1, ordering: .relaxed)
        }
    }

    /// Lines dropped because they were not read.
    public var dropped: Int { writer.dropped.load(ordering: .relaxed) }

    /// Waits until every queued line is written, for at most `limit` (a pipe nobody reads never empties).
    /// Returns whether it emptied. Looks every few milliseconds: a write stuck in write(2) cannot be awaited.
    @discardableResult
    public func drain<C: Clock<Duration>>(within limit: Duration, clock: C = ContinuousClock()) async -> Bool {
        let deadline = clock.now.advanced(by: limit)
        while clock.now < deadline {
            if writer.pending.load(ordering: .relaxed) == 0 { return true }
            try? await clock.sleep(for: .milliseconds(5))
        }
        return writer.pending.load(ordering: .relaxed) == 0
    }

    /// Takes the lines off the stream and writes them, on its own loop.
    private actor Writer {
        nonisolated let executor: OwnEventLoop
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }
        private let write: @Sendable (Line) -> Void
        /// Lines queued and not written yet.
        let pending = Atomic<Int>(0)
        let dropped = Atomic<Int>(0)

        init(name: String, write: @escaping @Sendable (Line) -> Void) {
            executor = OwnEventLoop(name: name)
            self.write = write
        }

        func run(_ lines: AsyncStream<Line>) async {
            for await line in lines {
                write(line)
                pending.subtract(1, ordering: .relaxed)
            }
        }
    }
}

/// stdout as one more subscriber: encoded event lines, without their newline.
public typealias StdoutSubscriber = LineWriter<String>
