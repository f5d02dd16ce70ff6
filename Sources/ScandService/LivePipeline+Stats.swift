import ScandCapture
import ScandCore

extension LivePipeline {
    public struct Counters: Sendable, Equatable {
        public var capture = CaptureCounters()
        /// Frames the decoder finished.
        public var decoded = 0
        /// Frames with a decoder pass that crashed, hung or was refused.
        public var failed = 0
        /// Frames not decoded because the scene had not changed since a decode that found nothing.
        public var skippedStatic = 0
        /// Codes read, frame by frame.
        public var codes = 0
        /// SCAN events: codes confirmed once per appearance.
        public var scans = 0
        /// Time spent decoding, all frames together.
        public var decodeSeconds = 0.0
        /// Capture-to-event latency of recent frames with codes, milliseconds: median and 99th percentile.
        public var latencyP50: Double?
        public var latencyP99: Double?
        /// Decoder processes replaced because they died: crashed or hung in a pass, or ended between frames.
        public var workerRestarts = 0

        /// The counters as STATS and STATUS report them.
        public var frameCounters: FrameCounters {
            var c = FrameCounters()
            c.captured = capture.captured
            c.dropped = capture.dropped
            c.decoded = decoded
            c.skippedStatic = skippedStatic
            c.failed = failed
            c.codes = codes
            c.scans = scans
            c.decodeMillisecondsMean = decodeSeconds * 1000 / Double(max(1, decoded))
            c.latencyP50Milliseconds = latencyP50
            c.latencyP99Milliseconds = latencyP99
            c.workerRestarts = workerRestarts
            return c
        }
    }

    /// A STATS event with the counters.
    public func statsEvent() -> Event {
        .stats(device: device, counters: counters.frameCounters)
    }
}
