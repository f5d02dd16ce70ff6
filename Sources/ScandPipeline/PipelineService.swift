import Foundation
import ScandCore
import ServiceLifecycle

/// The live pipeline as a service of the daemon's group. Its run loop runs the pipeline, and the one that
/// replaces it when a new configuration (SIGHUP) changes the camera: the old one stops capture (its DEVICE event
/// says why), finishes its frame and ends, and the loop goes on with the new one, which opens the camera with
/// fresh buffers. A configuration that keeps the camera's settings changes decoding and tracking in place:
/// capture, tracked codes and counters go on. On graceful shutdown capture stops; the service ends with STATS,
/// published before the socket (the next service to stop) closes.
///
/// An actor: the running pipeline and the configuration are its state, read by socket requests (STATUS,
/// metrics, snapshots) with a call on it. It never blocks: it only hands work to the pipeline's own actors.
package actor PipelineService: Service {
    private var pipeline: LivePipeline
    private var configuration: ScandConfig
    /// Counts replacements, so that the run loop tells a replaced pipeline's end from the daemon's.
    private var generation = 0
    /// Shutting down: a pipeline that replaced the stopped one is not run.
    private var stopping = false
    private let make: @Sendable (ScandConfig) -> LivePipeline
    private let output: OutputSink
    /// Returns once every event written so far is out (STATS among them).
    private let published: @Sendable () async -> Void

    package init(
        config: ScandConfig, output: OutputSink, published: @escaping @Sendable () async -> Void = {},
        make: @escaping @Sendable (ScandConfig) -> LivePipeline
    ) {
        self.make = make
        self.output = output
        self.published = published
        self.pipeline = make(config)
        self.configuration = config
    }

    package var current: LivePipeline { pipeline }

    /// The configuration in use.
    package var config: ScandConfig { configuration }

    package func run() async throws {
        let last = await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                // Not on cancellation: the pipeline ended by itself (a replay is over).
                guard (try? await gracefulShutdown()) != nil else { return }
                await beginStopping().stop()
            }
            let last = await runPipelines()
            group.cancelAll()
            return last
        }
        await output.room()
        output.event(last.statsEvent())
        await published()
    }

    /// Shutting down: returns the pipeline to stop.
    private func beginStopping() -> LivePipeline {
        stopping = true
        return pipeline
    }

    /// Runs the current pipeline, and each that replaces it, until one ends without having been replaced (a
    /// replay is over, or a stop); returns that one.
    private func runPipelines() async -> LivePipeline {
        while true {
            let (running, started) = (pipeline, generation)
            await running.run()
            if generation == started || stopping { return running }
        }
    }

    /// Applies `new`; returns what about the camera changed (empty: capture went on undisturbed). A new camera
    /// configuration returns once the running pipeline has taken the stop: the run loop starts the new one as
    /// soon as the old one has ended.
    @discardableResult
    package func apply(_ new: ScandConfig) async -> [String] {
        let changes = new.cameraChanges(from: configuration)
        configuration = new
        let running = pipeline
        guard !changes.isEmpty else {
            await running.reconfigure(new)
            return []
        }
        // The new pipeline becomes current before the old one ends, so the run loop goes on with it instead of
        // taking the old one's end for the end of the daemon.
        pipeline = make(new)
        generation += 1
        await running.stop(reason: "restarting for the new configuration: \(changes.joined(separator: ", "))")
        return changes
    }

    /// Takes the configuration's camera controls overridden by `settings` (set live over the socket) as its
    /// camera controls without touching capture: the running camera has them already, and later pipelines and
    /// reloads start from them. Read and written in one call: no other change comes between.
    package func adoptCameraControls(overriddenBy settings: [CameraControlSetting]) {
        configuration.cameraControls = configuration.cameraControls.overridden(by: settings)
    }
}
