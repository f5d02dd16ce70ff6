import ScandRuntime
import Synchronization

/// When the MQTT network loop last turned, in `Monotonic` microseconds: set by the loop's thread between
/// libmosquitto's calls, read by the bridge's watchdog (`MQTTConnection.loopIsStuck`).
final class LoopTurns: Sendable {
    private let last = Atomic<UInt64>(Monotonic.microseconds())

    func turned() { last.store(Monotonic.microseconds(), ordering: .relaxed) }

    /// The time since the last turn (none when it was stamped after `now` was read).
    var sinceLastTurn: Duration {
        let now = Monotonic.microseconds(), last = last.load(ordering: .relaxed)
        return .microseconds(Int64(now > last ? now - last : 0))
    }
}
