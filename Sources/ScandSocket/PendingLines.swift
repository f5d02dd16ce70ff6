import Synchronization

/// Lines handed to a client's channel and not yet taken by the kernel, counted down as NIO writes them: past
/// the queue limit the client is not keeping up. Counted by the writer (and on the loop for the hub's live
/// lines), counted down on the event loop.
final class PendingLines: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func add(_ n: Int) { count.add(n, ordering: .relaxed) }

    func taken(_ n: Int) { count.subtract(n, ordering: .relaxed) }
}
