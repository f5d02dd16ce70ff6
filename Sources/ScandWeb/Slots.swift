import NIOConcurrencyHelpers

/// Places for the connections served at once: one is taken before serving and given back when it ends.
final class Slots: Sendable {
    let max: Int
    private let taken = NIOLockedValueBox(0)

    init(max: Int) { self.max = max }

    /// A place, or false when every one is taken.
    func take() -> Bool {
        taken.withLockedValue { n in
            guard n < max else { return false }
            n += 1
            return true
        }
    }

    func giveBack() { taken.withLockedValue { $0 -= 1 } }
}
