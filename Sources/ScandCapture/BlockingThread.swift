import Foundation

/// A thread of its own for blocking work (poll, ioctl, decoding never run on Swift's cooperative pool),
/// which others can wait for — also before it has started, so that a waiter never mistakes "not yet
/// started" for "finished".
public final class BlockingThread: @unchecked Sendable {
    private let name: String
    private let condition = NSCondition()
    private var finished = false

    public init(name: String) {
        self.name = name
    }

    public func start(_ body: @escaping @Sendable () -> Void) {
        let t = Thread { [self] in
            body()
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        t.name = name
        t.start()
    }

    /// Blocks until the body has returned.
    public func wait() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
