import NIOPosix

/// Changes to what the daemon keeps (the rect of interest, camera controls) are carried out one at a time, in
/// the order they were asked, each after the one before has been kept and applied: the last one asked wins on
/// disk and in use alike. Each change is a task of the actor that keeps the setting, which awaits the change
/// asked before it (the actor takes the calls in the order they come, and each notes its task as the last).
/// Their file writes (a fsync each) run on NIO's thread pool, the daemon's path for blocking file work, off
/// the cooperative pool.
enum SerialChanges {
    /// Runs the blocking `write` on NIO's thread pool; its error, if any.
    static func onDisk<Failure: Error>(_ write: @escaping @Sendable () throws(Failure) -> Void) async -> Failure? {
        let written = try? await NIOThreadPool.singleton.runIfActive { Result { () throws(Failure) in try write() } }
        guard case .failure(let error) = written else { return nil }
        return error
    }
}
