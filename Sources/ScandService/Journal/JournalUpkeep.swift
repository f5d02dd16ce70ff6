import Dispatch
import NIOConcurrencyHelpers

/// Runs the journal's upkeep (`EventLog.upkeep`) every second on a queue of its own, until stopped: it may
/// open, check and write files, which must not happen on the cooperative pool.
final class JournalUpkeep: Sendable {
    static let interval = DispatchTimeInterval.seconds(1)
    private let queue = DispatchQueue(label: "scand-journal-upkeep")
    private let stopped = NIOLockedValueBox(false)
    private let work: @Sendable () -> Void

    init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
        schedule()
    }

    private func schedule() {
        queue.asyncAfter(deadline: .now() + Self.interval) { [self] in
            guard !stopped.withLockedValue({ $0 }) else { return }
            work()
            schedule()
        }
    }

    func stop() { stopped.withLockedValue { $0 = true } }
}
