import ScandCapture
import ScandCore
import ScandDecoding
import ScandTracking

/// `scand run`'s pipeline from a configuration: the frame source (the configured camera or a recording),
/// capture options and the decoder. The command and tests build pipelines with it alike.
public struct PipelineBuilder: Sendable {
    public enum Source: Sendable, Equatable {
        /// The configuration's camera, at its size and rate.
        case camera
        /// A `scand record` file at the given pace.
        case replay(path: String, pace: ReplaySource.Pace)
        /// Generated frames played in a loop, stamped live as a camera's (`--source demo`).
        case synthetic(SyntheticSource.Playlist)
    }

    public var source: Source
    /// Stop after this many frames (`--frames`); nil: run until stopped.
    public var frameLimit: Int?

    public init(source: Source = .camera, frameLimit: Int? = nil) {
        self.source = source
        self.frameLimit = frameLimit
    }

    /// The replay's pace; nil for the camera.
    var replayPace: ReplaySource.Pace? {
        if case .replay(_, let pace) = source { pace } else { nil }
    }

    /// For benchmarks: how often the whole-frame passes run (`FrameDecoder.wholeFrameEvery`); nil, its default.
    public var wholeFrameEvery: Int?

    public func pipeline(for config: ScandConfig, output: OutputSink, metrics: DaemonMetrics? = nil) -> LivePipeline {
        var options = CaptureSession.Options()
        options.maxFrames = frameLimit
        options.frameTimeoutMilliseconds = config.frameTimeoutMilliseconds
        if let pace = replayPace { options.delivery = pace.delivery }
        let frameSource: FrameSource =
            switch source {
            case .replay(let path, let pace): ReplaySource(path: path, pace: pace)
            case .synthetic(let playlist): SyntheticSource(playlist)
            case .camera:
                V4L2Source(
                    path: config.device,
                    request: .init(
                        width: config.width, height: config.height, framesPerSecond: config.framesPerSecond, pixelFormat: config.pixelFormat,
                        controls: config.cameraControls))
            }
        // The camera's clock is its frames' stamps' (CLOCK_MONOTONIC); a replay's is its pace's.
        let clock = replayPace?.clock ?? .monotonic
        return LivePipeline(
            source: frameSource, decoder: frameDecoder(for: config), output: output, captureOptions: options,
            tracker: config[section: TrackerSettings.self],
            metrics: metrics, clock: clock)
    }

    /// The pipeline's decoder. A lockstep replay decodes every frame and must give the same events on every
    /// run, on any machine and under any load: which expensive passes run is then a fixed plan (each kind in
    /// its turn, whatever a frame costs), never decided by the wall time a loaded machine measured (six
    /// lockstep replays of one till session gave 75 to 79 items). The other paces keep the budget: they are
    /// live as a camera is.
    func frameDecoder(for config: ScandConfig) -> FrameDecoder {
        var decoder = FrameDecoder(
            formats: config.formats, regionOfInterest: config.regionOfInterest, transform: config.transform, itfLengths: config.itfLengths)
        if replayPace == .lockstep { decoder.extraPassBudgetMilliseconds = .infinity }
        if let wholeFrameEvery { decoder.wholeFrameEvery = wholeFrameEvery }
        return decoder
    }
}
