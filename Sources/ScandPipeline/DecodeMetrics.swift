import ScandCapture
import ScandCore
import ScandProtocol
import Synchronization

/// What the decode loop has done so far: state of the decode loop (its one writer), which publishes the
/// figures STATUS, STATS and the watchdog read from any thread in `DecodeCounters`.
struct DecodeMetrics {
    /// The figures as published, shared with the pipeline that reads them.
    let published: DecodeCounters
    private var decodeSeconds = 0.0
    private var latencies = LatencyWindow()
    private var focus = FocusHold()

    init(publishingTo published: DecodeCounters = DecodeCounters()) { self.published = published }

    func decodeStarted(at time: UInt64) { published.decodeStartedAt.store(time, ordering: .relaxed) }

    func decodeEnded() { published.decodeStartedAt.store(0, ordering: .relaxed) }

    func skippedStaticScene() { published.skippedStatic.add(1, ordering: .relaxed) }

    /// The rect of interest's sharpness in a frame measured at `time` (frame time, µs): STATUS reports the
    /// highest of the last second (`FocusHold`).
    mutating func focus(_ sharpness: Double?, at time: UInt64) {
        focus.take(sharpness, at: time)
        published.focusSharpness.store(DecodeCounters.bits(focus.value), ordering: .relaxed)
    }

    func failedFrame() { published.failed.add(1, ordering: .relaxed) }

    func workersRestarted(_ n: Int) { published.workerRestarts.add(n, ordering: .relaxed) }

    /// One frame decoded: `latency` (ms) counts towards the percentiles when the frame had codes.
    mutating func decoded(seconds: Double, codes: Int, scans: Int, failed: Bool, latency: Double) {
        decodeSeconds += seconds
        published.decodeSeconds.store(decodeSeconds.bitPattern, ordering: .relaxed)
        // Replays that keep the recorded stamps (lockstep, fast): no latency to speak of.
        if codes > 0 && latency >= 0 && latency < 60_000 {
            latencies.record(latency)
            let p = latencies.percentiles([0.5, 0.99])
            published.latencyP50.store(DecodeCounters.bits(p[0]), ordering: .relaxed)
            published.latencyP99.store(DecodeCounters.bits(p[1]), ordering: .relaxed)
        }
        published.codes.add(codes, ordering: .relaxed)
        published.scans.add(scans, ordering: .relaxed)
        if failed { published.failed.add(1, ordering: .relaxed) }
        // Last: a reader that sees the frame counted sees its figures.
        published.decoded.add(1, ordering: .releasing)
    }
}

/// The decode loop's figures as it publishes them, read from any thread (STATUS, STATS, the watchdog): atomics,
/// written once a frame by the decode loop alone, so that reading them never waits for a frame's decode
/// (the watchdog reads `decodingSince` while a decode hangs). A reader may see one frame's figures half
/// counted, never torn ones.
final class DecodeCounters: Sendable {
    let decoded = Atomic<Int>(0), failed = Atomic<Int>(0), codes = Atomic<Int>(0), scans = Atomic<Int>(0)
    let skippedStatic = Atomic<Int>(0), workerRestarts = Atomic<Int>(0)
    /// The seconds spent decoding, a `Double`'s bits.
    let decodeSeconds = Atomic<UInt64>(0)
    /// The latency percentiles and the focus figure, `Double`s' bits; `none` while there is none.
    let latencyP50 = Atomic<UInt64>(none), latencyP99 = Atomic<UInt64>(none), focusSharpness = Atomic<UInt64>(none)
    /// When the frame being decoded was taken (0: idle), `Monotonic` microseconds.
    let decodeStartedAt = Atomic<UInt64>(0)

    /// No figure (a NaN no measure makes).
    static let none = UInt64.max

    static func bits(_ value: Double?) -> UInt64 { value?.bitPattern ?? none }

    private static func value(_ bits: UInt64) -> Double? { bits == none ? nil : Double(bitPattern: bits) }

    /// The counters, with the capture side's.
    func counters(capture: CaptureCounters) -> FrameCounters {
        var c = FrameCounters()
        (c.captured, c.dropped, c.corrupt) = (capture.captured, capture.dropped, capture.corrupt)
        c.decoded = decoded.load(ordering: .acquiring)
        c.failed = failed.load(ordering: .relaxed)
        c.skippedStatic = skippedStatic.load(ordering: .relaxed)
        c.codes = codes.load(ordering: .relaxed)
        c.scans = scans.load(ordering: .relaxed)
        c.decodeMillisecondsMean = Double(bitPattern: decodeSeconds.load(ordering: .relaxed)) * 1000 / Double(max(1, c.decoded))
        c.latencyP50Milliseconds = Self.value(latencyP50.load(ordering: .relaxed))
        c.latencyP99Milliseconds = Self.value(latencyP99.load(ordering: .relaxed))
        c.workerRestarts = workerRestarts.load(ordering: .relaxed)
        c.focusSharpness = Self.value(focusSharpness.load(ordering: .relaxed))
        return c
    }

    var decodingSince: UInt64 { decodeStartedAt.load(ordering: .relaxed) }
}
