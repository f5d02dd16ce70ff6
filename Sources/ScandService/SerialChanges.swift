import NIOConcurrencyHelpers
import NIOPosix

/// Changes to what the daemon keeps (the rect of interest, camera controls) carried out one at a time, in the
/// order they were asked, each after the one before has been kept and applied: the last one asked wins on
/// disk and in use alike. Their file writes (a fsync each) run on NIO's thread pool, the daemon's one path
/// for blocking file work, off the cooperative pool; one at a time, since each change awaits the one before.
final class SerialChanges: Sendable {
    /// The last change asked for: the next one waits for it.
    private let last = NIOLockedValueBox<Task<Void, Never>?>(nil)

    init() {}

    /// Runs `change` once every change asked before it is done.
    func enqueue(_ change: @escaping @Sendable () async -> Void) {
        last.withLockedValue { last in
            let previous = last
            last = Task {
                await previous?.value
                await change()
            }
        }
    }

    /// Runs the blocking `write` on NIO's thread pool; its error, if any.
    func onDisk<Failure: Error>(_ write: @escaping @Sendable () throws(Failure) -> Void) async -> Failure? {
        let written = try? await NIOThreadPool.singleton.runIfActive { Result { () throws(Failure) in try write() } }
        guard case .failure(let error) = written else { return nil }
        return error
    }
}
