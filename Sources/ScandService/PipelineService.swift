import Foundation
import Logging
import ServiceLifecycle

/// The live pipeline as a swift-service-lifecycle service: starts its threads, stops capture on graceful
/// shutdown (SIGTERM, SIGINT), and ends with a STATS event once every frame taken has been decoded.
public struct PipelineService: Service {
    let pipeline: LivePipeline
    let output: OutputSink

    public init(pipeline: LivePipeline, output: OutputSink) {
        self.pipeline = pipeline
        self.output = output
    }

    public func run() async throws {
        pipeline.start()
        await withGracefulShutdownHandler {
            await pipeline.finished()
        } onGracefulShutdown: {
            pipeline.stop()
        }
        output.event(pipeline.statsEvent())
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
