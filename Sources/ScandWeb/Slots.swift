import Synchronization

/// Places for the connections served at once: one is taken before serving and given back when it ends.
/// Taken in a channel's initializer, on its event loop: a counter, so an atomic one rather than a lock.
final class Slots: Sendable {
    let max: Int
    private let taken = Atomic(0)

    init(max: Int) { self.max = max }

    /// A place, or false when every one is taken.
    func take() -> Bool { taken.increment(below: max) }

    func giveBack() { taken.subtract(1, ordering: .relaxed) }
}
