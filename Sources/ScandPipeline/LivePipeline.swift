import Foundation
import NIOConcurrencyHelpers
import ScandCapture
import ScandCore
import ScandDecoding
import ScandProtocol
import ScandRuntime
import ScandTracking

/// Camera to events: a capture session feeds the frame hand-off; the decode loop takes the newest frame,
/// decodes it, runs the codes through the tracker and writes its events (SCAN once per code shown, UPDATE,
/// LOST). Frames that arrive while it decodes are dropped and counted.
public final class LivePipeline: Sendable {
    /// The device path or file name, for events.
    package let device: String
    private let capture: CaptureSession
    private let decodeLoop: DecodeLoop
    /// The decode loop's figures, as it publishes them.
    private let metrics = DecodeCounters()
    private let lastStatus: DeviceBox

    /// - Parameter metrics: the daemon's Prometheus metrics, which outlive a pipeline replaced on reload.
    /// - Parameter clock: the camera's, or a replay's recorded stamps (`ReplaySource.Pace.clock`).
    public init(
        source: sending FrameSource, decoder: FrameDecoder, output: OutputSink, captureOptions: CaptureSession.Options = .init(),
        tracker: TrackerSettings = TrackerSettings(), metrics daemonMetrics: DaemonMetrics? = nil,
        clock: PipelineClock = .monotonic
    ) {
        if let allocate = decoder.frameMemory { source.captureLuma(into: allocate) }
        device = source.name
        let lastStatus = DeviceBox()
        self.lastStatus = lastStatus
        let worker = decoder.decoder.worker
        capture = CaptureSession(
            source: source, options: captureOptions,
            onStatus: { status in
                // No frames while the camera is gone: the decoder processes are ended meanwhile (they
                // hold nothing of the camera, started by exec); new ones start with frames.
                if status.state == .lost { worker?.retire() }
                lastStatus.status.withLockedValue { $0 = status }
                lastStatus.reachedFirst.finish()
                output.event(.device(status))
                if let reason = status.reason, status.state != .streaming {
                    output.logger(reason, status.failed ? .error : status.state == .stopped ? .notice : .warning)
                }
            })
        if let allocate = decoder.frameMemory { capture.handOff.decodeCompressed(into: allocate) }
        decodeLoop = DecodeLoop(
            decoder: decoder, tracker: tracker, device: device, output: output, metrics: DecodeMetrics(publishingTo: metrics),
            daemonMetrics: daemonMetrics, clock: clock)
    }

    public var counters: FrameCounters { metrics.counters(capture: capture.handOff.counters) }

    /// A STATS event with the counters.
    public func statsEvent() -> Event { .stats(device: device, counters: counters) }

    /// The capture side's own counters (MJPEG frames decoded whole among them), for benchmarks and tests.
    public var captureCounters: CaptureCounters { capture.handOff.counters }

    /// Runs capture and decoding to their end (once): a task group over the capture session and the decode
    /// loop, each an actor on an event loop of its own. It ends when capture has ended (stopped, a recording
    /// over) and the decoder has finished the frames handed to it.
    public func run() async {
        let capture = capture, decodeLoop = decodeLoop
        await withDiscardingTaskGroup { group in
            // Each hops straight onto its own loop: a busy cooperative pool cannot delay the start.
            group.addImmediateTask { await capture.run() }
            group.addImmediateTask { await decodeLoop.run(from: capture.handOff) }
        }
    }

    /// Stops capture; the decoder finishes the frame it has and the one waiting, then ends. Carried out at the
    /// capture session's next frame boundary.
    /// - Parameter reason: the message of the DEVICE event that says so.
    public func stop(reason: String = "shutting down") async { await capture.stop(reason: reason) }

    /// Decodes and tracks with the formats, rect of interest, orientation, ITF lengths and tracker settings of
    /// `config` from the next frame on; capture, the codes being tracked and the counters go on.
    public func reconfigure(_ config: ScandConfig) async {
        await decodeLoop.reconfigure(config)
    }

    /// A SNAPSHOT of the next frame decoded, or an ERROR saying why there is none (a line encoded once for
    /// everyone waiting); nothing is made for a client no longer `isWanted`. Returns an ERROR at once when
    /// cancelled (the client is gone).
    public func snapshot(isWanted: @escaping @Sendable () -> Bool) async -> String {
        if let refusal = noSnapshot { return refusal }
        // The answer comes from the thread pool that makes the snapshot, or from the decode loop's patience.
        let (answered, answer) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        await decodeLoop.waitForSnapshot(isWanted: isWanted) { line in
            answer.yield(line)
            answer.finish()
        }
        for await line in answered { return line }
        return Event.error("no frame to show: the request was given up").line
    }

    /// `snapshot(isWanted:)` with its answer handed to `answer` (the benches ask so, from a loop that does not
    /// wait): the request reaches the decode loop in a task of its own.
    public func snapshot(isWanted: @escaping @Sendable () -> Bool, _ answer: @escaping @Sendable (String) -> Void) {
        if let refusal = noSnapshot { return answer(refusal) }
        let decodeLoop = decodeLoop
        Task { await decodeLoop.waitForSnapshot(isWanted: isWanted, answer: answer) }
    }

    /// Why no snapshot can be made now (the camera does not stream), as the ERROR line; nil: one can.
    private var noSnapshot: String? {
        guard let d = deviceStatus, d.state != .streaming else { return nil }
        return Event.error("no frame to show: the camera is \(d.state.rawValue)" + (d.reason.map { ": \($0)" } ?? "")).line
    }

    /// The camera's controls (nil: the source has none), after setting `settings` first when given: now and at
    /// every later open of this pipeline's camera. Carried out by the capture session between two frames.
    public func cameraControls(set settings: [CameraControlSetting]? = nil) async throws(CaptureError) -> [CameraControl]? {
        try await capture.cameraControls(set: settings)
    }

    /// The camera's last reported state.
    public var deviceStatus: DeviceStatus? { lastStatus.status.withLockedValue { $0 } }

    /// Returns once the camera has reported its first state (streaming, waiting for the device, failed), or
    /// after `timeout`.
    public func firstDeviceStatus(within timeout: Duration) async {
        let box = lastStatus
        await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask { for await _ in box.first {} }
            // The wait ends at the timeout for every waiter: a camera that says nothing for that long is not
            // waited for again.
            tasks.addTask {
                try? await Task.sleep(for: timeout)
                box.reachedFirst.finish()
            }
            await tasks.next()
            tasks.cancelAll()
        }
    }

    /// Healthy when the capture session made progress within `interval`, frames arrived within it while
    /// streaming, and the decoder has not spent longer than it on one frame: when the service watchdog may
    /// be pinged.
    public func isHealthy(within interval: Duration) -> Bool {
        // Monotonic microseconds, now read last: no time read before it is later than it.
        let activity = capture.activity, decodingSince = metrics.decodingSince, now = Monotonic.microseconds()
        let limit = UInt64(interval.components.seconds) * 1_000_000 + UInt64(interval.components.attoseconds / 1_000_000_000_000)
        guard now &- activity.loop <= limit else { return false }
        if activity.streaming && now &- activity.frame > limit { return false }
        return decodingSince == 0 || now &- decodingSince <= limit
    }

    /// Why the source could not be used at all (a missing or malformed recording); nil otherwise.
    public var failure: String? {
        get async { await capture.failure?.description }
    }
}

/// The last DEVICE status, set by the capture session and read by STATUS requests.
final class DeviceBox: Sendable {
    let status = NIOLockedValueBox<DeviceStatus?>(nil)
    /// Finished with the first status (or a wait's timeout): a wait for it reads it to its end.
    let first: AsyncStream<Never>
    let reachedFirst: AsyncStream<Never>.Continuation

    init() { (first, reachedFirst) = AsyncStream.makeStream(of: Never.self) }
}
