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

        /// The counters as STATS and STATUS write them.
        public var jsonFields: [(String, JSONValue)] {
            var fields: [(String, JSONValue)] = [
                ("captured", .int(capture.captured)), ("dropped", .int(capture.dropped)), ("decoded", .int(decoded)),
                ("skippedStatic", .int(skippedStatic)), ("failed", .int(failed)), ("codes", .int(codes)), ("scans", .int(scans)),
                ("decodeMsMean", JSONValue.number(decodeSeconds * 1000 / Double(max(1, decoded)), places: 2)),
            ]
            if let latencyP50 { fields.append(("latencyP50Ms", JSONValue.number(latencyP50, places: 1))) }
            if let latencyP99 { fields.append(("latencyP99Ms", JSONValue.number(latencyP99, places: 1))) }
            fields.append(("workerRestarts", .int(workerRestarts)))
            return fields
        }
    }

    /// A STATS event with the counters.
    public func statsEvent() -> String {
        JSONValue.object([("class", .string("STATS")), ("device", .string(device))] + counters.jsonFields).serialized()
    }
}
