import Foundation
import ScandCapture
import ScandCore
import ScandDecoding
import Synchronization

/// Camera to events: a capture session feeds the frame hand-off; the decode loop takes the newest frame,
/// decodes it, runs the codes through the tracker and writes its events (SCAN once per code shown, UPDATE,
/// LOST). Frames that arrive while it decodes are dropped and counted.
public final class LivePipeline: Sendable {
    /// The device path or file name, for events.
    let device: String
    private let capture: CaptureSession
    private let decodeLoop: DecodeLoop
    private let metrics = DecodeMetrics()
    private let lastStatus: DeviceBox
    private let started = Mutex(false)
    private let ended = Completion()

    /// - Parameter clock: now, on the clock of frame timestamps (CLOCK_MONOTONIC), for LOST events while
    ///   no frame arrives; nil from it means "no time passes but with frames" (lockstep replays).
    public init(source: sending FrameSource, decoder: FrameDecoder, output: OutputSink, captureOptions: CaptureSession.Options = .init(),
                tracker: TrackerSettings = TrackerSettings(),
                clock: @escaping @Sendable () -> Duration? = { .microseconds(Monotonic.microseconds()) }) {
        if let allocate = decoder.frameMemory { source.captureLuma(into: allocate) }
        device = source.name
        let lastStatus = DeviceBox()
        self.lastStatus = lastStatus
        let worker = decoder.decoder.worker
        capture = CaptureSession(source: source, options: captureOptions, onStatus: { status in
            // A decoder process may map buffers of the camera (libv4l2 maps them itself when it
            // converts MJPEG, and fork copies such mappings); a mapping holds the device open, so
            // an unplugged camera could not come back while one lives. New ones start with frames.
            if status.state == .lost { worker?.retire() }
            lastStatus.status.withLock { $0 = status }
            output.event(status.json.serialized())
            if let reason = status.reason, status.state != .streaming {
                output.log(reason, status.failed ? .error : status.state == .stopped ? .notice : .warning)
            }
        })
        decodeLoop = DecodeLoop(decoder: decoder, tracker: tracker, device: device, output: output, metrics: metrics, clock: clock)
    }

    public var counters: Counters { metrics.counters(capture: capture.handOff.counters) }

    /// Starts capture and decoding (once).
    public func start() {
        guard started.withLock({ s in defer { s = true }; return !s }) else { return }
        let capture = capture, decodeLoop = decodeLoop, ended = ended
        Task {
            async let captured: Void = capture.run()
            await decodeLoop.run(from: capture.handOff)
            await captured
            ended.finish()
        }
    }

    /// Stops capture; the decoder finishes the frame it has and the one waiting, then ends.
    /// - Parameter reason: the message of the DEVICE event that says so.
    public func stop(reason: String = "shutting down") { capture.stop(reason: reason) }

    /// Decodes and tracks with the formats, rect of interest, orientation, ITF lengths and tracker settings of
    /// `config` from the next frame on; capture, the codes being tracked and the counters go on.
    public func reconfigure(_ config: ScandConfig) async {
        await decodeLoop.reconfigure(config)
    }

    /// Returns when capture and decoding have ended (waiting through a start that has not come yet).
    public func finished() async { await ended.wait() }

    /// Blocks until capture and decoding have ended: for synchronous commands, never from a task.
    public func wait() { ended.waitBlocking() }

    /// The camera's last reported state.
    public var deviceStatus: DeviceStatus? { lastStatus.status.withLock { $0 } }

    /// Healthy when the capture session made progress within `interval`, frames arrived within it while
    /// streaming, and the decoder has not spent longer than it on one frame: when the service watchdog may
    /// be pinged.
    public func isHealthy(within interval: Duration) -> Bool {
        PipelineHealth.isHealthy(capture: capture.activity, decodingSince: metrics.decodingSince, now: Monotonic.microseconds(), within: interval)
    }

    /// Why the source could not be used at all (a missing or malformed recording); nil otherwise.
    public var failure: String? { capture.failure?.description }
}

/// The last DEVICE status, set by the capture session and read by STATUS requests.
final class DeviceBox: Sendable {
    let status = Mutex<DeviceStatus?>(nil)
}

/// The JSON of tracker events: SCAN and UPDATE with the code's fields, LOST with its id and payload.
public enum TrackEventJSON {
    public static func json(_ e: TrackEvent, device: String, frame: Frame?, width: Int, height: Int) -> String {
        var fields: [(String, JSONValue)] = [("class", .string(e.className)), ("id", .int(e.id)), ("device", .string(device)),
                                             ("time", .string(Timestamp.iso8601(Date())))]
        if let frame { fields.append(("frame", .int(Int(truncatingIfNeeded: frame.sequence)))) }
        let d = e.detection
        switch e {
        case .scan:
            fields += d.jsonFields(frameWidth: width, frameHeight: height)
            if let frame {
                let latency = Double(Monotonic.microseconds() &- frame.timestampMicroseconds) / 1000
                if latency >= 0 && latency < 60_000 { fields.append(("latencyMs", JSONValue.number(latency, places: 1))) }
            }
        case .update:
            fields += d.jsonFields(frameWidth: width, frameHeight: height, includeValue: false)
                .filter { ["format", "corners", "normalized", "orientation"].contains($0.0) }
        case .lost:
            fields += [("format", .string(d.format.name)), ("text", .string(d.text))]
        }
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
