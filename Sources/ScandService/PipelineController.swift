import Foundation
import ScandCore
import NIOConcurrencyHelpers

/// Owns the running pipeline and applies a new configuration (SIGHUP). One that keeps the camera's settings
/// changes decoding and tracking in place: capture, tracked codes and counters go on. One that changes the
/// camera replaces the pipeline: the old one stops capture (its DEVICE event says why), finishes its frame and
/// ends; the new one opens the camera with fresh buffers.
public final class PipelineController: Sendable {
    private struct State {
        var pipeline: LivePipeline
        var config: ScandConfig
        /// Counts replacements, so that `finished` tells a replaced pipeline's end from the daemon's.
        var generation = 0
    }
    private let state: NIOLockedValueBox<State>
    private let make: @Sendable (ScandConfig) -> LivePipeline

    public init(config: ScandConfig, make: @escaping @Sendable (ScandConfig) -> LivePipeline) {
        self.make = make
        self.state = NIOLockedValueBox(State(pipeline: make(config), config: config))
    }

    public var current: LivePipeline { state.withLockedValue { $0.pipeline } }

    /// The configuration in use.
    public var config: ScandConfig { state.withLockedValue { $0.config } }

    public func start() { current.start() }

    /// Applies `new`; returns what about the camera changed (empty: capture went on undisturbed).
    @discardableResult
    public func apply(_ new: ScandConfig) async -> [String] {
        let (running, changes) = state.withLockedValue { s in
            let changes = new.cameraChanges(from: s.config)
            s.config = new
            return (s.pipeline, changes)
        }
        guard !changes.isEmpty else {
            await running.reconfigure(new)
            return []
        }
        // The new pipeline becomes current before the old one ends, so `finished` moves on to it
        // instead of taking the old one's end for the end of the daemon.
        let fresh = make(new)
        let old = state.withLockedValue { s in
            let old = s.pipeline
            s.pipeline = fresh
            s.generation += 1
            return old
        }
        await old.stop(reason: "restarting for the new configuration: \(changes.joined(separator: ", "))")
        await old.finished()
        fresh.start()
        return changes
    }

    /// Takes `controls` as the configuration's camera controls without touching capture: the running camera
    /// has them already (set live), and later pipelines and reloads start from them.
    public func adoptCameraControls(_ controls: [CameraControlSetting]) {
        state.withLockedValue { $0.config.cameraControls = controls }
    }

    public func stop() async { await current.stop() }

    /// Returns when the pipeline ends by itself (a replay is over) or after `stop`; a replacement in
    /// between is waited through.
    public func finished() async {
        while true {
            let (p, g) = state.withLockedValue { ($0.pipeline, $0.generation) }
            await p.finished()
            if state.withLockedValue({ $0.generation == g }) { return }
        }
    }
}
