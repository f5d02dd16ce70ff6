import Prometheus
import ScandCore
import ScandProtocol

/// The daemon's Prometheus metrics, made with swift-prometheus and handed out as text by `?METRICS;`:
/// `scand web` serves them on /metrics, the daemon itself has no network. Histograms are recorded as frames
/// are decoded and codes scanned; the frame counters catch up with the pipeline's when the text is made
/// (a camera change on reload starts a new pipeline from zero: a counter going back counts as a restart).
/// An actor: the counters as last taken are its state, brought up to date by `exposition`; the histograms
/// (swift-prometheus's own, safe from any thread) are recorded by the decode loop without a call on it.
public actor DaemonMetrics {
    private let registry = PrometheusCollectorRegistry()
    private let captured: Counter, dropped: Counter, decoded: Counter, skipped: Counter, restarts: Counter, corrupt: Counter
    private let decodeDuration: DurationHistogram
    private let scanLatency: DurationHistogram
    private let cameraUp: Gauge
    private let focus: Gauge
    private let subscribers: Gauge
    /// The pipeline's counters as the Prometheus counters last took them.
    private var taken = FrameCounters()

    public init() {
        let registry = self.registry
        func counter(_ name: String, _ help: String) -> Counter { registry.makeCounter(descriptor: Self.name(name, "total", help)) }
        func gauge(_ name: String, _ help: String) -> Gauge { registry.makeGauge(descriptor: Self.name(name, "", help)) }
        func histogram(_ name: String, _ help: String, _ buckets: [Duration]) -> DurationHistogram {
            registry.makeDurationHistogram(descriptor: Self.name(name, "seconds", help), buckets: buckets)
        }
        captured = counter("frames_captured", "Frames taken from the camera.")
        dropped = counter("frames_dropped", "Frames replaced by a newer one while the decoder was busy.")
        decoded = counter("frames_decoded", "Frames the decoder finished.")
        skipped = counter("frames_skipped", "Frames not decoded because the scene had not changed since a decode that found nothing.")
        restarts = counter("decoder_restarts", "Decoder processes replaced after they crashed, hung or ended.")
        corrupt = counter("frames_corrupt", "MJPEG frames that were corrupt or cut short, skipped.")
        let milliseconds = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000].map { Duration.milliseconds($0) }
        decodeDuration = histogram("decode_duration", "Time the decoder spent on one frame.", milliseconds)
        scanLatency = histogram("scan_latency", "From the capture of a frame to the SCAN event of a code in it.", Array(milliseconds.dropFirst(2)))
        cameraUp = gauge("camera_up", "1 while the camera streams, 0 otherwise.")
        focus = gauge("focus_sharpness", "Sharpness of the rect of interest (mean gradient energy of its luma): higher is sharper.")
        subscribers = gauge("subscribers", "Socket clients watching events.")
    }

    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "scand", metricName: metric, unitName: unit, helpText: help)
    }

    /// One frame decoded in `seconds`.
    public nonisolated func recordDecode(seconds: Double) {
        decodeDuration.record(.nanoseconds(Int64(seconds * 1e9)))
    }

    /// One SCAN: counted by format, its capture-to-event latency recorded when known.
    public nonisolated func recordScan(format: BarcodeFormat, latencyMilliseconds: Double?) {
        registry.makeCounter(descriptor: Self.name("scans", "total", "Codes scanned (SCAN events), by format."), labels: [("format", format.name)])
            .increment()
        if let ms = latencyMilliseconds { scanLatency.record(.nanoseconds(Int64(ms * 1e6))) }
    }

    /// The text exposition, with the frame counters brought up to `counters`.
    public func exposition(counters: FrameCounters, cameraStreaming: Bool, watching: Int) -> String {
        func advance(_ counter: Counter, _ now: Int, _ before: Int) {
            counter.increment(by: Int64(now >= before ? now - before : now))
        }
        advance(captured, counters.captured, taken.captured)
        advance(dropped, counters.dropped, taken.dropped)
        advance(decoded, counters.decoded, taken.decoded)
        advance(skipped, counters.skippedStatic, taken.skippedStatic)
        advance(restarts, counters.workerRestarts, taken.workerRestarts)
        advance(corrupt, counters.corrupt, taken.corrupt)
        taken = counters
        cameraUp.set(to: cameraStreaming ? 1.0 : 0.0)
        focus.set(to: counters.focusSharpness ?? 0)
        subscribers.set(to: Double(watching))
        return registry.emitToString()
    }
}
