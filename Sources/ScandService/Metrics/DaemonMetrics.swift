import Prometheus
import ScandCore
import ScandProtocol
import NIOConcurrencyHelpers

/// The daemon's Prometheus metrics, made with swift-prometheus and handed out as text by `?METRICS;`:
/// `scand web` serves them on /metrics, the daemon itself has no network. Histograms are recorded as frames
/// are decoded and codes scanned; the frame counters catch up with the pipeline's when the text is made
/// (a camera change on reload starts a new pipeline from zero: a counter going back counts as a restart).
public final class DaemonMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let captured: Counter, dropped: Counter, decoded: Counter, skipped: Counter, restarts: Counter, corrupt: Counter
    private let decodeDuration: DurationHistogram
    private let scanLatency: DurationHistogram
    private let cameraUp: Gauge
    private let focus: Gauge
    private let subscribers: Gauge
    /// The pipeline's counters as the Prometheus counters last took them.
    private let taken = NIOLockedValueBox(FrameCounters())

    public init() {
        let registry = self.registry
        func counter(_ name: String, _ help: String) -> Counter {
            registry.makeCounter(descriptor: MetricNameDescriptor(namespace: "scand", metricName: name, unitName: "total", helpText: help))
        }
        captured = counter("frames_captured", "Frames taken from the camera.")
        dropped = counter("frames_dropped", "Frames replaced by a newer one while the decoder was busy.")
        decoded = counter("frames_decoded", "Frames the decoder finished.")
        skipped = counter("frames_skipped", "Frames not decoded because the scene had not changed since a decode that found nothing.")
        restarts = counter("decoder_restarts", "Decoder processes replaced after they crashed, hung or ended.")
        corrupt = counter("frames_corrupt", "MJPEG frames that were corrupt or cut short, skipped.")
        let milliseconds = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000].map { Duration.milliseconds($0) }
        decodeDuration = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "scand", metricName: "decode_duration", unitName: "seconds",
                helpText: "Time the decoder spent on one frame."), buckets: milliseconds)
        scanLatency = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "scand", metricName: "scan_latency", unitName: "seconds",
                helpText: "From the capture of a frame to the SCAN event of a code in it."),
            buckets: Array(milliseconds.dropFirst(2)))
        cameraUp = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "scand", metricName: "camera_up", unitName: "",
                helpText: "1 while the camera streams, 0 otherwise."))
        focus = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "scand", metricName: "focus_sharpness", unitName: "",
                helpText: "Sharpness of the rect of interest (mean gradient energy of its luma): higher is sharper."))
        subscribers = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "scand", metricName: "subscribers", unitName: "",
                helpText: "Socket clients watching events."))
    }

    /// One frame decoded in `seconds`.
    public func recordDecode(seconds: Double) {
        decodeDuration.record(.nanoseconds(Int64(seconds * 1e9)))
    }

    /// One SCAN: counted by format, its capture-to-event latency recorded when known.
    public func recordScan(format: BarcodeFormat, latencyMilliseconds: Double?) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "scand", metricName: "scans", unitName: "total",
                helpText: "Codes scanned (SCAN events), by format."),
            labels: [("format", format.name)]
        ).increment()
        if let ms = latencyMilliseconds { scanLatency.record(.nanoseconds(Int64(ms * 1e6))) }
    }

    /// The text exposition, with the frame counters brought up to `counters`.
    public func exposition(counters: FrameCounters, cameraStreaming: Bool, watching: Int) -> String {
        taken.withLockedValue { last in
            func advance(_ counter: Counter, _ now: Int, _ before: Int) {
                counter.increment(by: Int64(now >= before ? now - before : now))
            }
            advance(captured, counters.captured, last.captured)
            advance(dropped, counters.dropped, last.dropped)
            advance(decoded, counters.decoded, last.decoded)
            advance(skipped, counters.skippedStatic, last.skippedStatic)
            advance(restarts, counters.workerRestarts, last.workerRestarts)
            advance(corrupt, counters.corrupt, last.corrupt)
            last = counters
        }
        cameraUp.set(to: cameraStreaming ? 1.0 : 0.0)
        focus.set(to: counters.focusSharpness ?? 0)
        subscribers.set(to: Double(watching))
        return registry.emitToString()
    }
}
