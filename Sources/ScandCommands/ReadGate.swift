import NIOConcurrencyHelpers

/// The MQTT bridge's hold on its subscription's reader: after handing a line over, the reader waits until
/// the bridge has taken it and reading is not paused. So the bridge never has more than one line it has
/// not taken, and a paused bridge stops reading the socket.
final class ReadGate: Sendable {
    private struct State {
        var handed = 0
        var taken = 0
        var paused = false
        var closed = false
        var waiter: CheckedContinuation<Void, Never>?

        /// The waiter to resume, if it may go on now.
        mutating func release() -> CheckedContinuation<Void, Never>? {
            guard let waiter, closed || (taken >= handed && !paused) else { return nil }
            self.waiter = nil
            return waiter
        }
    }
    private let state = NIOLockedValueBox(State())

    /// The reader hands a line over; then it waits with `waitUntilTaken`.
    func handOver() { state.withLockedValue { $0.handed += 1 } }

    /// Until every line handed over is taken and reading is not paused (or the gate is closed).
    func waitUntilTaken() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let go = state.withLockedValue { s in
                s.waiter = waiter
                return s.release()
            }
            go?.resume()
        }
    }

    func took() { change { $0.taken += 1 } }
    func pause() { change { $0.paused = true } }
    func resume() { change { $0.paused = false } }
    /// For good: a waiting reader goes on, and none waits again.
    func close() { change { $0.closed = true } }

    private func change(_ body: (inout State) -> Void) {
        let go = state.withLockedValue { s in
            body(&s)
            return s.release()
        }
        go?.resume()
    }
}
