import NIOPosix

/// Where tests do long work of their own (drawing and recording scenes, writing thousands of journal events):
/// on threads of their own, never on the cooperative pool. It has a thread per core, and seconds of pixel
/// loops or SQLite commits on it (tens of seconds under ThreadSanitizer) starved the daemons that other tests
/// run in the same process: their tasks missed their deadlines.
public enum OffPool {
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    /// `work`'s result, computed on those threads while the calling task is suspended. `work` records no test
    /// issue (it runs outside the test's task): it returns what the test then checks.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await threads.runIfActive(work)
    }
}
