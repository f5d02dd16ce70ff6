import ScandCapture
import ScandCore
import ScandDecoding

/// `scand run`'s pipeline from a configuration: the frame source (the configured camera or a recording),
/// capture options and the decoder. The command and tests build pipelines with it alike.
public struct PipelineBuilder: Sendable {
    public enum Source: Sendable, Equatable {
        /// The configuration's camera, at its size and rate.
        case camera
        /// A `scand record` file at the given pace.
        case replay(path: String, pace: ReplaySource.Pace)
    }

    public var source: Source
    /// Stop after this many frames (`--frames`); nil: run until stopped.
    public var frameLimit: Int?

    public init(source: Source = .camera, frameLimit: Int? = nil) {
        self.source = source
        self.frameLimit = frameLimit
    }

    /// A replay in lockstep decodes every frame with the recorded stamps: no frame is dropped and no time
    /// passes but with frames, so every run gives the same events.
    var lockstep: Bool {
        if case .replay(_, .lockstep) = source { true } else { false }
    }

    public func pipeline(for config: ScandConfig, output: OutputSink, metrics: DaemonMetrics? = nil) -> LivePipeline {
        var options = CaptureSession.Options()
        options.maxFrames = frameLimit
        options.frameTimeoutMilliseconds = config.frameTimeoutMilliseconds
        options.lossless = lockstep
        let frameSource: FrameSource =
            switch source {
            case .replay(let path, let pace): ReplaySource(path: path, pace: pace)
            case .camera:
                V4L2Source(
                    path: config.device,
                    request: .init(
                        width: config.width, height: config.height, framesPerSecond: config.framesPerSecond, pixelFormat: config.pixelFormat,
                        controls: config.cameraControls))
            }
        let lockstep = lockstep
        return LivePipeline(
            source: frameSource,
            decoder: FrameDecoder(
                formats: config.formats, regionOfInterest: config.regionOfInterest, transform: config.transform,
                itfLengths: config.itfLengths),
            output: output, captureOptions: options, tracker: config.tracker, metrics: metrics,
            clock: { lockstep ? nil : .microseconds(Monotonic.microseconds()) })
    }
}
