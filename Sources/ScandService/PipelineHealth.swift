import ScandCapture

/// The watchdog's judgement: healthy when capture made progress within the interval, frames arrived
/// within it while streaming, and the decoder has not spent longer than it on one frame.
enum PipelineHealth {
    /// - Parameters: now, decodingSince (0: idle) and the activity's times are `Monotonic` microseconds.
    static func isHealthy(capture: CaptureSession.Activity, decodingSince: UInt64, now: UInt64, within interval: Duration) -> Bool {
        let limit = UInt64(interval.components.seconds) * 1_000_000 + UInt64(interval.components.attoseconds / 1_000_000_000_000)
        guard now &- capture.loop <= limit else { return false }
        if capture.streaming && now &- capture.frame > limit { return false }
        return decodingSince == 0 || now &- decodingSince <= limit
    }
}
