import Foundation
import ScandCore
import ServiceLifecycle
import UnixSignals
import ScandSocket
import ScandPipeline

/// systemd's side: READY=1 once the socket is served and the camera opened or waited for; STATUS= with a
/// one-line summary; WATCHDOG=1 only while the pipeline is healthy; STOPPING=1; and reload on SIGHUP.
struct SupervisorService: Service {
    let pipeline: PipelineService
    let hub: EventHub
    let hangups: UnixSignalsSequence
    /// The configuration the daemon started with: what a reload cannot apply stays as it is here.
    let running: ScandConfig
    let reload: @Sendable () async throws -> ScandConfig
    let output: OutputSink

    func run() async throws {
        // The first DEVICE status (streaming or waiting) arrives within a moment of start.
        await pipeline.current.firstDeviceStatus(within: .seconds(1))
        Systemd.ready(status: StatusSummary.line(await pipeline.current, hub: hub))
        let watchdog = Systemd.watchdogInterval()
        await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                for await _ in hangups {
                    Systemd.reloading()
                    do {
                        let config = try await reload()
                        let cameraChanges = await pipeline.apply(config)
                        let unapplied = Setting.unappliedChanges(from: running, to: config, in: .daemon)
                        output.logger(
                            (cameraChanges.isEmpty
                                ? "configuration reloaded; capture continues"
                                : "configuration reloaded; the camera restarted for \(cameraChanges.joined(separator: ", "))")
                                + (unapplied.isEmpty ? "" : "; not applied, these need a restart: \(unapplied.joined(separator: ", "))"),
                            unapplied.isEmpty ? .notice : .warning)
                    } catch {
                        output.logger("reload refused, the running configuration stays: \(error)", .error)
                    }
                    Systemd.ready(status: StatusSummary.line(await pipeline.current, hub: hub))
                }
            }
            // The pings in a group of their own, ended before STOPPING=1: no WATCHDOG=1 or STATUS= follows it
            // (cancelling the pinging task alone could not stop a ping already past its cancellation check).
            await withTaskGroup(of: Void.self) { pings in
                pings.addTask {
                    let period = watchdog.map { $0 / 2 } ?? .seconds(5)
                    while !Task.isCancelled {
                        try? await Task.sleep(for: period)
                        if Task.isCancelled { break }
                        let running = await pipeline.current
                        let summary = StatusSummary.line(running, hub: hub)
                        let healthy = watchdog.map { running.isHealthy(within: $0) } ?? false
                        Systemd.status(summary)
                        if healthy { Systemd.watchdog() }
                    }
                }
                try? await gracefulShutdown()
                pings.cancelAll()
            }
            Systemd.stopping()
            tasks.cancelAll()
        }
    }
}
