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
                let p = await pipeline.current
                let regionOfInterest = await roi.applied(to: pipeline.config).regionOfInterest
                return StatusReport(
                    device: p.deviceStatus, counters: p.counters, clients: hub.counters, stdoutDropped: console.dropped,
                    regionOfInterest: regionOfInterest, journal: events.status)
            },
            metrics: {
                let p = await pipeline.current
                return await metrics.exposition(
                    counters: p.counters, cameraStreaming: p.deviceStatus?.state == .streaming, watching: hub.counters.watching)
            },
            snapshot: { isWanted in await pipeline.current.snapshot(isWanted: isWanted) },
            regionOfInterest: { await roi.applied(to: pipeline.config).regionOfInterest },
            setRegionOfInterest: { rect in
                // One change at a time, in the order asked: saved, then applied (RegionOfInterestOverride).
                let failure = await roi.set(rect) { rect in
                    var config = await pipeline.config
                    config.regionOfInterest = rect
                    await pipeline.apply(config)
                }
                guard let failure else { return .regionOfInterest(rect) }
                return .error("\(failure); the rect of interest stays \(await roi.applied(to: pipeline.config).regionOfInterest)")
            },
            events: events)
        controls.cameraControls = {
            let running = await pipeline.current
            // The capture session answers between two frames.
            do throws(CaptureError) {
                let list = try await running.cameraControls()
                return .cameraControls(await cameraControls.report(device: running.device, controls: list))
            } catch {
                return .error(error.description)
            }
        }
        controls.setCameraControls = { change in
            await cameraControls.change(
                change, on: { await pipeline.current }, adopt: { all in await pipeline.adoptCameraControls(overriddenBy: all) })
        }
        return controls
    }
}
