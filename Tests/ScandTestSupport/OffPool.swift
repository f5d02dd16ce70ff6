import NIOPosix

/// Where tests do long work of their own, never on the cooperative pool: it has a thread per core, and seconds
/// of pixel loops, SQLite commits or blocking reads on it (tens of seconds under ThreadSanitizer) starved the
/// daemons that other tests run in the same process: their tasks missed their deadlines.
public enum OffPool {
    /// For computing (drawing and recording scenes, writing thousands of journal events): a thread per core.
    private static let computing: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    /// For waiting (blocking clients reading a socket): a pool of its own, so that a client never queues behind
    /// scenes being drawn. Under ThreadSanitizer, clients queued behind half a minute of drawing on the two
    /// computing threads outlasted their tests' one-minute limit (CI, the busy ThreadSanitizer phase).
    private static let waiting: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 16)
        pool.start()
        return pool
    }()

    /// `work`'s result, computed on those threads while the calling task is suspended. `work` records no test
    /// issue (it runs outside the test's task): it returns what the test then checks.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await computing.runIfActive(work)
    }

    /// `work`'s result, where `work` mostly waits (on a socket, a process): as `run`, on the waiting threads.
    public static func wait<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await waiting.runIfActive(work)
    }
}
