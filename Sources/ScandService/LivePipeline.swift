import Foundation
import ScandCapture
import ScandCore
import ScandDecoding
import Synchronization

/// Camera to events: a capture loop feeds the latest-frame slot; a decoding thread takes the newest frame,
/// decodes it, runs the codes through the tracker and writes its events (SCAN once per code shown, UPDATE,
/// LOST). Frames that arrive while it decodes are dropped and counted.
public final class LivePipeline: @unchecked Sendable {
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

    private let source: FrameSource
    private let decoder: FrameDecoder
    private let output: OutputSink
    private let slot = LatestFrameSlot()
    private let capture: CaptureLoop
    private let lock = NSLock()
    private var decoded = 0, failed = 0, codes = 0, scans = 0, skippedStatic = 0
    /// Skip frames of a static scene whose last decode found nothing (an idle kiosk costs next to no CPU).
    public var skipStaticScenes = true
    private let trackerSettings: TrackerSettings
    private let device: DeviceBox
    /// When the frame being decoded was taken (0: idle).
    private var decodingSince: UInt64 = 0
    private let clock: @Sendable () -> Duration?
    private var decodeSeconds = 0.0
    /// The last latencies, for percentiles (bounded: the daemon runs for months).
    private var latencies: [Double] = []
    private var latencyNext = 0
    static let latencyWindow = 1024
    private let decodeThread = BlockingThread(name: "scand-decode")
    /// Decoding and tracking settings from a reload, taken up by the decode thread before its next frame.
    private let reconfiguration = Mutex<ScandConfig?>(nil)
    private let workerRestarts = Mutex(0)

    /// - Parameter clock: now, on the clock of frame timestamps (CLOCK_MONOTONIC), for LOST events while
    ///   no frame arrives; nil from it means "no time passes but with frames" (lockstep replays).
    public init(source: FrameSource, decoder: FrameDecoder, output: OutputSink, captureOptions: CaptureLoop.Options = .init(),
                tracker: TrackerSettings = TrackerSettings(),
                clock: @escaping @Sendable () -> Duration? = { .microseconds(Monotonic.microseconds()) }) {
        self.source = source
        self.decoder = decoder
        if let allocate = decoder.frameMemory { source.captureLuma(into: allocate) }
        self.output = output
        self.trackerSettings = tracker
        self.clock = clock
        let device = DeviceBox()
        self.device = device
        let worker = decoder.decoder.worker
        self.capture = CaptureLoop(source: source, slot: slot, options: captureOptions,
                                   onStatus: { status in
                                       // A decoder process may map buffers of the camera (libv4l2 maps them itself when it
                                       // converts MJPEG, and fork copies such mappings); a mapping holds the device open, so
                                       // an unplugged camera could not come back while one lives. New ones start with frames.
                                       if status.state == .lost { worker?.retire() }
                                       device.set(status)
                                       output.event(.device(status))
                                       if let reason = status.reason, status.state != .streaming {
                                           output.log(reason, status.failed ? .error : status.state == .stopped ? .notice : .warning)
                                       }
                                   })
    }

    public var counters: Counters {
        lock.lock()
        defer { lock.unlock() }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double? { sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return Counters(capture: slot.counters, decoded: decoded, failed: failed, skippedStatic: skippedStatic, codes: codes, scans: scans,
                        decodeSeconds: decodeSeconds,
                        latencyP50: percentile(0.5), latencyP99: percentile(0.99), workerRestarts: workerRestarts.withLock { $0 })
    }

    public func start() {
        capture.start()
        decodeThread.start { [self] in decodeLoop() }
    }

    /// Stops capture; the decoder finishes the frame it has and the one waiting, then ends.
    /// - Parameter reason: the message of the DEVICE event that says so.
    public func stop(reason: String = "shutting down") { capture.stop(reason: reason) }

    /// Decodes and tracks with the formats, rect of interest, orientation, ITF lengths and tracker settings of
    /// `config` from the next frame on; capture, the codes being tracked and the counters go on.
    public func reconfigure(_ config: ScandConfig) {
        reconfiguration.withLock { $0 = config }
    }

    /// Blocks until capture and decoding have ended.
    public func wait() {
        capture.wait()
        decodeThread.wait()
    }

    /// The camera's last reported state.
    public var deviceStatus: DeviceStatus? { device.get() }

    /// Healthy when the capture thread made progress within `interval`, frames arrived within it while
    /// streaming, and the decoder has not spent longer than it on one frame: when the service watchdog may
    /// be pinged.
    public func isHealthy(within interval: Duration) -> Bool {
        let now = Monotonic.microseconds()
        let limit = UInt64(interval.components.seconds) * 1_000_000 + UInt64(interval.components.attoseconds / 1_000_000_000_000)
        let a = capture.lastActivity
        lock.lock()
        let busySince = decodingSince
        lock.unlock()
        guard now &- a.loop <= limit else { return false }
        if a.streaming && now &- a.frame > limit { return false }
        return busySince == 0 || now &- busySince <= limit
    }

    /// Why the source could not be used at all (a missing or malformed recording); nil otherwise.
    public var failure: String? { capture.failure?.description }

    /// A STATS event with the counters.
    public func statsEvent() -> Event {
        .stats(device: source.name, counters: counters.frameCounters)
    }

    private func decodeLoop() {
        var tracker = CodeTracker(settings: trackerSettings)
        var decoder = self.decoder  // it keeps a schedule of expensive passes from frame to frame
        // The last decoded frame's scene, and whether that decode found anything.
        var lastScene: SceneSignature?
        var lastFound = false
        var processes = DecoderProcessWatch()
        while true {
            if let config = reconfiguration.withLock({ c in defer { c = nil }; return c }) {
                decoder = decoder.reconfigured(config)
                tracker.settings = config.tracker
                lastScene = nil  // the new settings may read what the old ones did not
            }
            switch slot.take(timeoutMilliseconds: 100) {
            case .closed:
                decoder.decoder.worker?.retire()
                return
            case .idle:
                if let now = clock() { write(tracker.tick(at: now), frame: nil) }
            case .frame(let frame):
                let scene = SceneSignature(frame: frame)
                if skipStaticScenes, !lastFound, tracker.visible.isEmpty, let last = lastScene, scene.isStatic(comparedTo: last) {
                    write(tracker.tick(at: .microseconds(frame.timestampMicroseconds)), frame: (frame, frame.format.width, frame.format.height))
                    lock.withLock { skippedStatic += 1 }
                    continue
                }
                lastScene = scene
                let started = Monotonic.microseconds()
                lock.lock()
                decodingSince = started
                lock.unlock()
                defer {
                    lock.lock()
                    decodingSince = 0
                    lock.unlock()
                }
                // A process that died since the last frame is replaced by this read, with no failed pass to show.
                let ended = decoder.decoder.worker.map { processes.ended(among: $0.processIDs) } ?? 0
                if ended > 0 { workerRestarts.withLock { $0 += ended } }
                let result: FrameDecoder.Result
                do { result = try decoder.decode(frame) } catch {
                    output.log("frame \(frame.sequence): \(error)", .warning)
                    lock.lock()
                    failed += 1
                    lock.unlock()
                    continue
                }
                let spent = Double(Monotonic.microseconds() - started) / 1e6
                // A process that crashed or overran in a pass was killed and replaced too.
                let replaced = result.failures.filter { $0.kind == .crashed || $0.kind == .timeout }.count
                if replaced > 0 { workerRestarts.withLock { $0 += replaced } }
                for failure in result.failures { output.log("frame \(frame.sequence): \(failure)", .warning) }
                lastFound = !result.detections.isEmpty
                let events = tracker.observe(result.detections, at: .microseconds(frame.timestampMicroseconds))
                write(events, frame: (frame, result.width, result.height))
                let latency = Double(Monotonic.microseconds() &- frame.timestampMicroseconds) / 1000
                lock.lock()
                decoded += 1
                decodeSeconds += spent
                // Replays in lockstep carry recorded stamps: no latency to speak of.
                if !result.detections.isEmpty && latency >= 0 && latency < 60_000 { record(latency: latency) }
                codes += result.detections.count
                scans += events.filter { if case .scan = $0 { true } else { false } }.count
                if !result.failures.isEmpty { failed += 1 }
                lock.unlock()
            }
        }
    }

    private func write(_ events: [TrackEvent], frame: (Frame, Int, Int)?) {
        for e in events {
            var latency: Double?
            if case .scan = e, let f = frame?.0 {
                let ms = Double(Monotonic.microseconds() &- f.timestampMicroseconds) / 1000
                // Replays in lockstep carry recorded stamps: no latency to speak of.
                if ms >= 0 && ms < 60_000 { latency = ms }
            }
            output.event(Event(e, device: source.name, time: Date(), frame: frame.map { ($0.0.sequence, $0.1, $0.2) }, latencyMilliseconds: latency))
        }
    }
}

/// The last DEVICE status, shared between the capture thread and STATUS requests.
final class DeviceBox: @unchecked Sendable {
    private let lock = NSLock()
    private var status: DeviceStatus?
    func set(_ s: DeviceStatus) { lock.lock(); status = s; lock.unlock() }
    func get() -> DeviceStatus? { lock.lock(); defer { lock.unlock() }; return status }
}

extension LivePipeline {
    /// Call with the lock held.
    fileprivate func record(latency: Double) {
        if latencies.count < Self.latencyWindow { latencies.append(latency) } else { latencies[latencyNext] = latency }
        latencyNext = (latencyNext + 1) % Self.latencyWindow
    }
}

extension LivePipeline {
    /// Waits for the pipeline's threads without holding a thread of the cooperative pool.
    public func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = Thread { [self] in
                wait()
                continuation.resume()
            }
            waiter.name = "scand-pipeline-wait"
            waiter.start()
        }
    }
}
