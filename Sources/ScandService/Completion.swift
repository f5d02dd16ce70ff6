import NIOConcurrencyHelpers

/// Something that happens once (a pipeline's end), awaited by tasks; a wait that begins before it is started
/// is a wait all the same.
final class Completion: Sendable {
    private struct State {
        var done = false
        var waiters: [@Sendable () -> Void] = []
    }
    private let state = NIOLockedValueBox(State())

    func finish() {
        let waiters = state.withLockedValue { s in
            s.done = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for wake in waiters { wake() }
    }

    func reached() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let done = state.withLockedValue { s in
                if !s.done { s.waiters.append { c.resume() } }
                return s.done
            }
            if done { c.resume() }
        }
    }
}
