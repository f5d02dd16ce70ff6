import ScandCapture
import ScandCore
import ScandProtocol
import NIOConcurrencyHelpers

/// What the decode loop has done so far, written by it and read by STATUS, STATS and the watchdog from any
/// thread.
final class DecodeMetrics: Sendable {
    private struct State {
        var decoded = 0, failed = 0, codes = 0, scans = 0, skippedStatic = 0, workerRestarts = 0
        var decodeSeconds = 0.0
        var latencies = LatencyWindow()
        var focus = FocusHold()
        /// When the frame being decoded was taken (0: idle), `Monotonic` microseconds.
        var decodingSince: UInt64 = 0
    }
    private let state = NIOLockedValueBox(State())

    /// The counters, with the capture side's.
    func counters(capture: CaptureCounters) -> FrameCounters {
        state.withLockedValue { s in
            let p = s.latencies.percentiles([0.5, 0.99])
            var c = FrameCounters()
            (c.captured, c.dropped, c.corrupt) = (capture.captured, capture.dropped, capture.corrupt)
            (c.decoded, c.failed, c.skippedStatic, c.codes, c.scans) = (s.decoded, s.failed, s.skippedStatic, s.codes, s.scans)
            c.decodeMillisecondsMean = s.decodeSeconds * 1000 / Double(max(1, s.decoded))
            (c.latencyP50Milliseconds, c.latencyP99Milliseconds, c.workerRestarts) = (p[0], p[1], s.workerRestarts)
            c.focusSharpness = s.focus.value
            return c
        }
    }

    var decodingSince: UInt64 { state.withLockedValue { $0.decodingSince } }

    func decodeStarted(at time: UInt64) { state.withLockedValue { $0.decodingSince = time } }

    func decodeEnded() { state.withLockedValue { $0.decodingSince = 0 } }

    func skippedStaticScene() { state.withLockedValue { $0.skippedStatic += 1 } }

    /// The rect of interest's sharpness in a frame measured at `time` (frame time, µs): STATUS reports the
    /// highest of the last second (`FocusHold`).
    func focus(_ sharpness: Double?, at time: UInt64) { state.withLockedValue { $0.focus.take(sharpness, at: time) } }

    func failedFrame() { state.withLockedValue { $0.failed += 1 } }

    func workersRestarted(_ n: Int) { state.withLockedValue { $0.workerRestarts += n } }

    /// One frame decoded: `latency` (ms) counts towards the percentiles when the frame had codes.
    func decoded(seconds: Double, codes: Int, scans: Int, failed: Bool, latency: Double) {
        state.withLockedValue { s in
            s.decoded += 1
            s.decodeSeconds += seconds
            // Replays that keep the recorded stamps (lockstep, fast): no latency to speak of.
            if codes > 0 && latency >= 0 && latency < 60_000 { s.latencies.record(latency) }
            s.codes += codes
            s.scans += scans
            if failed { s.failed += 1 }
        }
    }
}
