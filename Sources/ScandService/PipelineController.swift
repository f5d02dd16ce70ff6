import Foundation
import ScandCore

/// Owns the running pipeline and replaces it when the configuration changes (SIGHUP): the old one stops
/// capture, finishes its frame and ends; the new one opens the camera with fresh buffers.
public final class PipelineController: @unchecked Sendable {
    private let lock = NSLock()
    private var pipeline: LivePipeline
    private var generation = 0
    private let make: @Sendable (ScandConfig) -> LivePipeline

    public init(config: ScandConfig, make: @escaping @Sendable (ScandConfig) -> LivePipeline) {
        self.make = make
        self.pipeline = make(config)
    }

    public var current: LivePipeline {
        lock.lock()
        defer { lock.unlock() }
        return pipeline
    }

    public func start() { current.start() }

    public func replace(with config: ScandConfig) async {
        // The new pipeline becomes current before the old one ends, so `finished` moves on to it
        // instead of taking the old one's end for the end of the daemon.
        let fresh = make(config)
        let old = lock.withLock {
            let old = pipeline
            pipeline = fresh
            generation += 1
            return old
        }
        old.stop()
        await old.finished()
        fresh.start()
    }

    public func stop() { current.stop() }

    /// Returns when the pipeline ends by itself (a replay is over) or after `stop`; a replacement in
    /// between is waited through.
    public func finished() async {
        while true {
            let (p, g) = lock.withLock { (pipeline, generation) }
            await p.finished()
            if lock.withLock({ generation == g }) { return }
        }
    }
}
