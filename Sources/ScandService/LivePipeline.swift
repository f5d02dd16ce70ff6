import Foundation
import ScandCapture
import ScandCore
import ScandDecoding

/// Camera to events: a capture loop feeds the latest-frame slot; a decoding thread takes the newest frame,
/// decodes it and writes one SCAN event per code. Frames that arrive while it decodes are dropped and counted.
public final class LivePipeline: @unchecked Sendable {
    public struct Counters: Sendable, Equatable {
        public var capture = CaptureCounters()
        /// Frames the decoder finished.
        public var decoded = 0
        /// Frames with a decoder pass that crashed, hung or was refused.
        public var failed = 0
        public var scans = 0
        /// Time spent decoding, all frames together.
        public var decodeSeconds = 0.0
        /// Capture-to-event latency of recent frames with codes, milliseconds: median and 99th percentile.
        public var latencyP50: Double?
        public var latencyP99: Double?
    }

    private let source: FrameSource
    private let decoder: FrameDecoder
    private let output: OutputSink
    private let slot = LatestFrameSlot()
    private let capture: CaptureLoop
    private let lock = NSLock()
    private var decoded = 0, failed = 0, scans = 0
    private var decodeSeconds = 0.0
    /// The last latencies, for percentiles (bounded: the daemon runs for months).
    private var latencies: [Double] = []
    private var latencyNext = 0
    static let latencyWindow = 1024
    private var decodeThread: Thread?
    private let done = NSCondition()
    private var decodeFinished = false

    public init(source: FrameSource, decoder: FrameDecoder, output: OutputSink, captureOptions: CaptureLoop.Options = .init()) {
        self.source = source
        self.decoder = decoder
        self.output = output
        self.capture = CaptureLoop(source: source, slot: slot, options: captureOptions,
                                   onStatus: { output.event($0.json.serialized()) })
    }

    public var counters: Counters {
        lock.lock()
        defer { lock.unlock() }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double? { sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return Counters(capture: slot.counters, decoded: decoded, failed: failed, scans: scans, decodeSeconds: decodeSeconds,
                        latencyP50: percentile(0.5), latencyP99: percentile(0.99))
    }

    public func start() {
        capture.start()
        let t = Thread { [self] in
            decodeLoop()
            done.lock()
            decodeFinished = true
            done.broadcast()
            done.unlock()
        }
        t.name = "scand-decode"
        decodeThread = t
        t.start()
    }

    /// Stops capture; the decoder finishes the frame it has and the one waiting, then ends.
    public func stop() { capture.stop() }

    /// Blocks until capture and decoding have ended.
    public func wait() {
        capture.wait()
        done.lock()
        while !decodeFinished { done.wait() }
        done.unlock()
    }

    /// Why the source could not be used at all (a missing or malformed recording); nil otherwise.
    public var failure: String? { capture.failure?.description }

    /// A STATS event with the counters.
    public func statsEvent() -> String {
        let c = counters
        return JSONValue.object([
            ("class", .string("STATS")), ("device", .string(source.name)), ("captured", .int(c.capture.captured)),
            ("dropped", .int(c.capture.dropped)), ("decoded", .int(c.decoded)), ("failed", .int(c.failed)), ("scans", .int(c.scans)),
        ] + (c.latencyP50.map { [("latencyP50Ms", JSONValue.number($0, places: 1))] } ?? [])
          + (c.latencyP99.map { [("latencyP99Ms", JSONValue.number($0, places: 1))] } ?? [])).serialized()
    }

    private func decodeLoop() {
        while let frame = slot.take() {
            do {
                let started = Monotonic.microseconds()
                let result = try decoder.decode(frame)
                let spent = Double(Monotonic.microseconds() - started) / 1e6
                for failure in result.failures { output.log("frame \(frame.sequence): \(failure)") }
                for d in result.detections {
                    output.event(LiveScanEvent.json(d, frame: frame, device: source.name, width: result.width, height: result.height))
                }
                let latency = Double(Monotonic.microseconds() &- frame.timestampMicroseconds) / 1000
                lock.lock()
                decoded += 1
                decodeSeconds += spent
                if !result.detections.isEmpty { record(latency: latency) }
                scans += result.detections.count
                if !result.failures.isEmpty { failed += 1 }
                lock.unlock()
            } catch {
                output.log("frame \(frame.sequence): \(error)")
                lock.lock()
                failed += 1
                lock.unlock()
            }
        }
    }
}

extension LivePipeline {
    /// Call with the lock held.
    fileprivate func record(latency: Double) {
        if latencies.count < Self.latencyWindow { latencies.append(latency) } else { latencies[latencyNext] = latency }
        latencyNext = (latencyNext + 1) % Self.latencyWindow
    }
}

/// The SCAN event of a live frame.
public enum LiveScanEvent {
    public static func json(_ d: Detection, frame: Frame, device: String, width: Int, height: Int) -> String {
        var fields: [(String, JSONValue)] = [
            ("class", .string("SCAN")), ("device", .string(device)), ("time", .string(Timestamp.iso8601(Date()))),
            ("frame", .int(Int(truncatingIfNeeded: frame.sequence))),
        ]
        fields += d.jsonFields(frameWidth: width, frameHeight: height)
        let latency = Double(Monotonic.microseconds() &- frame.timestampMicroseconds) / 1000
        if latency >= 0 && latency < 60_000 { fields.append(("latencyMs", JSONValue.number(latency, places: 1))) }
        return JSONValue.object(fields).serialized()
    }
}

public enum Timestamp {
    /// UTC with milliseconds, as gpsd writes times: 2026-11-22T12:00:00.123Z.
    public static func iso8601(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        var seconds = time_t(t.rounded(.down))
        var tm = tm()
        gmtime_r(&seconds, &tm)
        let ms = Int((t - t.rounded(.down)) * 1000)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday),
                      Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec), ms)
    }
}
