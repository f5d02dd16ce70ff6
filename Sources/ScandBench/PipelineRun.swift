import Foundation
import ScandProtocol
import ScandPipeline

/// The live pipeline run to its end as the benches measure it: the wall time, its counters and this
/// process's resident memory at its end, and the CPU this process and its decoder processes spent, read once
/// the pipeline is released: its decoder processes have exited and been reaped then, so their CPU counts
/// among this process's children.
struct PipelineRun {
    var counters: FrameCounters
    /// MJPEG frames decoded whole.
    var decompressed: Int
    var seconds: Double
    var cpuSeconds: Double
    /// Resident memory of this process before and at the end of the run, MiB.
    var rssBefore: Double
    var rssAfter: Double
    /// CPU over wall time: 100 = one core busy.
    var cpuPercent: Double { 100 * cpuSeconds / seconds }

    /// `makePipeline` is called once the clocks are read; `beside`'s task, if any, runs beside the pipeline
    /// and is cancelled and awaited when the pipeline has finished.
    init(_ makePipeline: () -> LivePipeline, beside: (LivePipeline) -> Task<Void, Never>? = { _ in nil }) async {
        rssBefore = FramesBench.residentMiB()
        let cpuBefore = FramesBench.cpuSeconds(), start = Date()
        do {  // the pipeline's scope: it is released at its end, before the CPU is read
            let pipeline = makePipeline()
            async let run: Void = pipeline.run()
            let task = beside(pipeline)
            await run
            task?.cancel()
            await task?.value
            seconds = Date().timeIntervalSince(start)
            counters = pipeline.counters
            decompressed = pipeline.captureCounters.decompressed
            rssAfter = FramesBench.residentMiB()
        }
        cpuSeconds = FramesBench.cpuSeconds() - cpuBefore
    }
}
