import Dispatch
import NIOConcurrencyHelpers

/// Changes to what the daemon keeps (the rect of interest, camera controls) carried out one at a time, in the
/// order they were asked, each after the one before has been kept and applied: the last one asked wins on
/// disk and in use alike. Their file writes run on a queue of their own, off the cooperative pool.
final class SerialChanges: Sendable {
    /// The last change asked for: the next one waits for it.
    private let last = NIOLockedValueBox<Task<Void, Never>?>(nil)
    private let disk: DispatchQueue

    init(label: String) { disk = DispatchQueue(label: label) }

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

    /// Runs the blocking `write` on the disk queue; its error, if any.
    func onDisk<Failure: Error>(_ write: @escaping @Sendable () throws(Failure) -> Void) async -> Failure? {
        await withCheckedContinuation { written in
            disk.async {
                do throws(Failure) {
                    try write()
                    written.resume(returning: nil)
                } catch {
                    written.resume(returning: error)
                }
            }
        }
    }
}
