import ScandRuntime
import Synchronization

/// The daemon's stdout (one more subscriber) and stderr: lines wait, bounded, on an event loop of its own that
/// writes them out (a write(2) to a pipe nobody reads blocks for as long, and must hold neither the cooperative
/// pool, the event runtime nor a loop the socket shares), so a stdout or stderr nobody drains never stalls
/// capture, the socket or shutdown. A line that finds `limit` lines waiting is dropped and counted; the first
/// drop is reported, once.
///
/// Each line is a job on the loop itself, as the event runtime's are: a line from the runtime's loop costs one
/// hop, where a stream's waiting reader would be resumed on the cooperative pool first and hop from there.
public final class LineWriter<Line: Sendable>: Sendable {
    private let writer: Writer
    private let limit: Int
    private let onFirstDrop: @Sendable () -> Void

    /// - Parameters: limit: lines that may wait besides the one being written; write: blocking, one whole
    ///   line; name: the writer thread's.
    public init(
        limit: Int, name: String = "scand-stdout", write: @escaping @Sendable (Line) -> Void,
        onFirstDrop: @escaping @Sendable () -> Void
    ) {
        self.writer = Writer(name: name, write: write)
        self.limit = max(1, limit)
        self.onFirstDrop = onFirstDrop
    }

    /// Queues a line; never blocks.
    public func publish(_ line: Line) {
        // Counted before it can be written, so that `pending` never goes below what waits.
        guard writer.pending.wrappingAdd(1, ordering: .relaxed).oldValue <= limit else {
            writer.pending.wrappingSubtract(1, ordering: .relaxed)
            if writer.dropped.wrappingAdd(1, ordering: .relaxed).newValue == 1 { onFirstDrop() }
            return
        }
        let writer = self.writer
        writer.executor.loop.execute { writer.assumeIsolated { $0.write(line) } }
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

    /// Writes the lines, one job each on its own loop, in the order they were published.
    private actor Writer {
        nonisolated let executor: OwnEventLoop
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }
        private let writeLine: @Sendable (Line) -> Void
        /// Lines queued and not written yet.
        let pending = Atomic<Int>(0)
        let dropped = Atomic<Int>(0)

        init(name: String, write: @escaping @Sendable (Line) -> Void) {
            executor = OwnEventLoop(name: name)
            self.writeLine = write
        }

        func write(_ line: Line) {
            writeLine(line)
            pending.wrappingSubtract(1, ordering: .relaxed)
        }
    }
}

/// stdout as one more subscriber: encoded event lines, without their newline.
public typealias StdoutSubscriber = LineWriter<String>
