import NIOPosix

/// Changes to what the daemon keeps (the rect of interest, camera controls) carried out one at a time, in the
/// order they were asked, each after the one before has been kept and applied: the last one asked wins on
/// disk and in use alike. They wait in a stream read by one task, which awaits each change before it takes
/// the next. Their file writes (a fsync each) run on NIO's thread pool, the daemon's path for blocking file
/// work, off the cooperative pool.
final class SerialChanges: Sendable {
    private typealias Change = @Sendable () async -> Void
    private let changes: AsyncStream<Change>.Continuation

    init() {
        let (stream, changes) = AsyncStream.makeStream(of: Change.self)
        self.changes = changes
        // Ends once this is gone and the changes asked before are done.
        Task { for await change in stream { await change() } }
    }

    deinit { changes.finish() }

    /// Runs `change` once every change asked before it is done.
    func enqueue(_ change: @escaping @Sendable () async -> Void) {
        changes.yield(change)
    }

    /// Runs the blocking `write` on NIO's thread pool; its error, if any.
    func onDisk<Failure: Error>(_ write: @escaping @Sendable () throws(Failure) -> Void) async -> Failure? {
        let written = try? await NIOThreadPool.singleton.runIfActive { Result { () throws(Failure) in try write() } }
        guard case .failure(let error) = written else { return nil }
        return error
    }
}
