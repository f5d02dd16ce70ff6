import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ServiceLifecycle

/// The live pipeline as a service of the daemon's group. Its run loop runs the pipeline, and the one that
/// replaces it when a new configuration (SIGHUP) changes the camera: the old one stops capture (its DEVICE event
/// says why), finishes its frame and ends, and the loop goes on with the new one, which opens the camera with
/// fresh buffers. A configuration that keeps the camera's settings changes decoding and tracking in place:
/// capture, tracked codes and counters go on. On graceful shutdown capture stops; the service ends with STATS,
/// published before the socket (the next service to stop) closes.
package final class PipelineService: Service, Sendable {
    private struct State {
        var pipeline: LivePipeline
        var config: ScandConfig
        /// Counts replacements, so that the run loop tells a replaced pipeline's end from the daemon's.
        var generation = 0
        /// Shutting down: a pipeline that replaced the stopped one is not run.
        var stopping = false
    }
    /// Read by socket requests at any moment (STATUS, metrics, snapshots): never held across a call.
    private let state: NIOLockedValueBox<State>
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
        self.state = NIOLockedValueBox(State(pipeline: make(config), config: config))
    }

    package var current: LivePipeline { state.withLockedValue { $0.pipeline } }

    /// The configuration in use.
    package var config: ScandConfig { state.withLockedValue { $0.config } }

    package func run() async throws {
        let last = await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                // Not on cancellation: the pipeline ended by itself (a replay is over).
                guard (try? await gracefulShutdown()) != nil else { return }
                await state.withLockedValue { s in
                    s.stopping = true
                    return s.pipeline
                }.stop()
            }
            let last = await runPipelines()
            group.cancelAll()
            return last
        }
        await output.room()
        output.event(last.statsEvent())
        await published()
    }

    /// Runs the current pipeline, and each that replaces it, until one ends without having been replaced (a
    /// replay is over, or a stop); returns that one.
    private func runPipelines() async -> LivePipeline {
        while true {
            let (pipeline, generation) = state.withLockedValue { ($0.pipeline, $0.generation) }
            await pipeline.run()
            if state.withLockedValue({ $0.generation == generation || $0.stopping }) { return pipeline }
        }
    }

    /// Applies `new`; returns what about the camera changed (empty: capture went on undisturbed). A new camera
    /// configuration returns once the running pipeline has taken the stop: the run loop starts the new one as
    /// soon as the old one has ended.
    @discardableResult
    package func apply(_ new: ScandConfig) async -> [String] {
        let (running, changes) = state.withLockedValue { s in
            let changes = new.cameraChanges(from: s.config)
            s.config = new
            return (s.pipeline, changes)
        }
        guard !changes.isEmpty else {
            await running.reconfigure(new)
            return []
        }
        // The new pipeline becomes current before the old one ends, so the run loop goes on with it instead of
        // taking the old one's end for the end of the daemon.
        let fresh = make(new)
        let old = state.withLockedValue { s in
            let old = s.pipeline
            s.pipeline = fresh
            s.generation += 1
            return old
        }
        await old.stop(reason: "restarting for the new configuration: \(changes.joined(separator: ", "))")
        return changes
    }

    /// Takes `controls` as the configuration's camera controls without touching capture: the running camera
    /// has them already (set live), and later pipelines and reloads start from them.
    package func adoptCameraControls(_ controls: [CameraControlSetting]) {
        state.withLockedValue { $0.config.cameraControls = controls }
    }
}
