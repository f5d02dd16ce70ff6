import ScandCapture
import ScandCore
import ScandProtocol
import ScandEventLog
import ScandSocket
import ScandPipeline

/// What the socket's requests ask of the rest of the daemon (STATUS, metrics, snapshots, the rect of interest,
/// camera controls), answered from the running pipeline and what was set over the socket.
struct SocketControls {
    let pipeline: PipelineService
    let hub: EventHub
    let console: StdoutSubscriber
    let roi: RegionOfInterestOverride
    let cameraControls: CameraControlOverride
    let metrics: DaemonMetrics
    let events: EventLog

    var daemonControls: DaemonControls {
        let pipeline = pipeline, hub = hub, console = console, roi = roi, cameraControls = cameraControls
        let metrics = metrics, events = events
        var controls = DaemonControls(
            status: {
                let p = pipeline.current
                return StatusReport(
                    device: p.deviceStatus, counters: p.counters, clients: hub.counters, stdoutDropped: console.dropped,
                    regionOfInterest: roi.applied(to: pipeline.config).regionOfInterest, journal: events.status)
            },
            metrics: {
                let p = pipeline.current
                return metrics.exposition(counters: p.counters, cameraStreaming: p.deviceStatus?.state == .streaming, watching: hub.counters.watching)
            },
            snapshot: { pipeline.current.snapshot(isWanted: $0, $1) },
            regionOfInterest: { roi.applied(to: pipeline.config).regionOfInterest },
            setRegionOfInterest: { rect, answer in
                // One change at a time, in the order asked: saved, then applied (RegionOfInterestOverride).
                roi.set(rect) { rect in
                    var config = pipeline.config
                    config.regionOfInterest = rect
                    await pipeline.apply(config)
                } done: { failure in
                    guard let failure else { return answer(.regionOfInterest(rect)) }
                    answer(.error("\(failure); the rect of interest stays \(roi.applied(to: pipeline.config).regionOfInterest)"))
                }
            },
            events: events)
        controls.cameraControls = { answer in
            let running = pipeline.current
            // The socket's handlers take answers by callback: the capture session answers between two frames.
            Task {
                do throws(CaptureError) {
                    let list = try await running.cameraControls()
                    answer(.cameraControls(cameraControls.report(device: running.device, controls: list)))
                } catch {
                    answer(.error(error.description))
                }
            }
        }
        controls.setCameraControls = { change, answer in
            cameraControls.change(
                change, on: { pipeline.current },
                adopt: { all in pipeline.adoptCameraControls(pipeline.config.cameraControls.overridden(by: all)) },
                done: answer)
        }
        return controls
    }
}
