@testable import ScandTracking

/// `n` milliseconds of the tracker's clock.
func ms(_ n: Int) -> Duration { .milliseconds(n) }

/// Events as the tests compare them: "SCAN 1 text".
func summary(_ events: [TrackEvent]) -> [String] {
    events.map { "\($0.kind) \($0.id) \($0.detection.text)" }
}
