import Foundation
import Logging
import NIOConcurrencyHelpers
import ScandCapture
import ScandCore
import ScandLogging
import ScandProtocol
import ServiceLifecycle
import UnixSignals

/// `scand run` assembled: the pipeline, the socket, systemd's protocols and reload, each a
/// swift-service-lifecycle service in one group. Tests build it the way the command does.
public struct Daemon: Sendable {
    public var config: ScandConfig
    /// Reads and validates the configuration again on SIGHUP (file + command line); throws the reason.
    public var reload: @Sendable () throws -> ScandConfig
    /// nil: no socket (`--socket none`).
    public var listener: SocketServer.Listener?
    /// Builds the pipeline, and a new one for a reload that needs it.
    public var pipelines: PipelineBuilder

    public init(
        config: ScandConfig, reload: @escaping @Sendable () throws -> ScandConfig, listener: SocketServer.Listener?,
        pipelines: PipelineBuilder
    ) {
        self.config = config
        self.reload = reload
        self.listener = listener
        self.pipelines = pipelines
    }

    /// The start-up line that says where what outlives a restart is kept, or that nothing is and why.
    static func stateSummary(directory: String?, journal: JournalStatus) -> String {
        guard let directory else {
            return
                "no state directory ([service] state_directory, or systemd's $STATE_DIRECTORY): no event journal, so a `since` and the MQTT bridge cannot resume, and a rect of interest or camera controls set over the socket last until the next restart; --state-directory DIR keeps them"
        }
        let kept: String
        switch journal {
        case .on(let span, _, _, _):
            kept = "event journal \((directory as NSString).appendingPathComponent(EventLog.fileName)) (\(span?.summary ?? "empty"))"
        case .off(let reason, _, _, _): kept = "event journal off (\(reason))"
        }
        return
            "state directory \(directory): \(kept); a rect of interest set over the socket is kept in \(RegionOfInterestOverride.path(in: directory))"
    }

    /// Runs until SIGTERM/SIGINT or until the source ends. Returns a failure to report, if any.
    public func run(stdout: OutputSink = .standard()) async throws -> String? {
        // Log lines wait in a bounded queue of their own, written off every event loop and the cooperative
        // pool: a stderr that blocks (a stalled journald) holds up no client and no frame. What waits goes
        // out before the daemon returns, however it ends, within a second.
        let logs = LineWriter<(String, Logger.Level)>(limit: 1024, name: "scand-stderr", write: { stdout.writeLog($0.0, $0.1) }, onFirstDrop: {})
        do {
            let failure = try await run(stdout: stdout, log: .scand(write: { logs.publish(($0, $1)) }))
            await logs.drain(within: .seconds(1))
            return failure
        } catch {
            await logs.drain(within: .seconds(1))
            throw error
        }
    }

    private func run(stdout: OutputSink, log: Logger) async throws -> String? {
        let hub = EventHub(queueLimit: config.clientQueueLimit, maxClients: config.maxClients, maxClientsPerUID: config.maxClientsPerUID)
        // stdout is one more bounded subscriber: a pipe nobody drains must not hold up anything else.
        let limit = config.clientQueueLimit
        let console = StdoutSubscriber(
            limit: limit, write: { stdout.line($0) },
            onFirstDrop: {
                log(
                    "stdout is not being read: \(limit) events wait there; further events for stdout are dropped while it stays full (STATUS counts them as stdoutDropped)",
                    .warning)
            })
        let stateDirectory = config.resolvedStateDirectory(environment: ProcessInfo.processInfo.environment)
        let events = EventLog(
            directory: stateDirectory, limits: .init(maxEvents: config.journalMaxEvents, maxAge: config.journalMaxAge.inSeconds),
            log: log)
        log(Self.stateSummary(directory: stateDirectory, journal: events.status), stateDirectory == nil ? .warning : .info)
        hub.numbering(of: events)
        // Every published event passes through the runtime, one at a time on its own loop: numbered, journaled,
        // encoded once, then handed to stdout and the socket's clients.
        let stage = EventRuntime(events: events) { published in
            console.publish(published.line)
            hub.publish(published)
        }
        let output = OutputSink(event: { stage.submit($0) }, log: { log($0, $1) }, logger: log, room: { await stage.room() })
        // Trap SIGHUP before anything runs: its default action would end the daemon.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let pipelines = self.pipelines
        let metrics = DaemonMetrics()
        let roi = RegionOfInterestOverride(directory: stateDirectory, log: output.logger)
        let cameraControls = CameraControlOverride(store: stateDirectory.map(CameraControlStore.init(directory:)), log: output.logger)
        // What was set over the socket, on top of a configuration read now or on SIGHUP.
        let overridden: @Sendable (ScandConfig) -> ScandConfig = { cameraControls.applied(to: roi.applied(to: $0)) }
        let controller = PipelineController(config: overridden(config)) { pipelines.pipeline(for: $0, output: output, metrics: metrics) }
        // The journal's upkeep while no event comes (a removed or damaged file replaced, a full disk retried):
        // first in the group, so the last to stop.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: JournalUpkeep { stage.upkeep() })]
        if let listener {
            var controls = DaemonControls(
                status: {
                    let p = controller.current
                    return StatusReport(
                        device: p.deviceStatus, counters: p.counters, clients: hub.counters, stdoutDropped: console.dropped,
                        regionOfInterest: roi.applied(to: controller.config).regionOfInterest, journal: events.status)
                },
                metrics: {
                    let p = controller.current
                    return metrics.exposition(
                        counters: p.counters, cameraStreaming: p.deviceStatus?.state == .streaming,
                        watching: hub.counters.watching)
                },
                snapshot: { controller.current.snapshot(isWanted: $0, $1) },
                regionOfInterest: { roi.applied(to: controller.config).regionOfInterest },
                setRegionOfInterest: { rect, answer in
                    // One change at a time, in the order asked: saved, then applied (RegionOfInterestOverride).
                    roi.set(rect) { rect in
                        var config = controller.config
                        config.regionOfInterest = rect
                        await controller.apply(config)
                    } done: { failure in
                        guard let failure else { return answer(.regionOfInterest(rect)) }
                        answer(.error("\(failure); the rect of interest stays \(roi.applied(to: controller.config).regionOfInterest)"))
                    }
                },
                events: events)
            controls.cameraControls = { answer in
                let pipeline = controller.current
                pipeline.cameraControls { result in
                    switch result {
                    case .success(let list): answer(.cameraControls(cameraControls.report(device: pipeline.device, controls: list)))
                    case .failure(let error): answer(.error(error.description))
                    }
                }
            }
            controls.setCameraControls = { change, answer in
                cameraControls.change(
                    change, on: { controller.current },
                    adopt: { all in controller.adoptCameraControls(controller.config.cameraControls.overridden(by: all)) },
                    done: answer)
            }
            let server = SocketServer(
                listener: listener, hub: hub, maxRequestBytes: config.maxRequestBytes, requestTimeout: config.requestTimeout,
                daemon: controls, adminGroup: config.adminGroup, log: output.logger)
            try server.claim()
            // Bound once the group runs, when SIGTERM is already handled: a client that sees the socket
            // may stop the daemon at once. A failure to bind stops the rest gracefully and is thrown.
            services.append(.init(service: SocketService(server: server), failureTerminationBehavior: .gracefullyShutdownGroup))
        }
        // The banner once the socket is claimed: a daemon refused (another scand holds the path) prints nothing on
        // stdout, only its one line on stderr. Nothing before this writes an event.
        output.event(.version(VersionInfo.banner))
        services.append(
            .init(
                service: PipelineService(controller: controller, output: output, published: { await stage.drained() }),
                successTerminationBehavior: .gracefullyShutdownGroup))
        let reload = self.reload
        services.append(
            .init(
                service: SupervisorService(
                    controller: controller, hub: hub, hangups: hangups, running: config, reload: { overridden(try reload()) },
                    output: output)))
        var logger = log  // the group's own lines (a service that failed) are the daemon's lines too
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        // STATS and the last events reach a stdout that is read; one that is not cannot hold up the exit.
        await stage.drained()
        await console.drain(within: .seconds(1))
        return controller.current.failure
    }
}

/// The live pipeline as a service: starts it, stops capture on graceful shutdown, ends with STATS, published
/// before the socket (the next service to stop) closes.
struct PipelineService: Service {
    let controller: PipelineController
    let output: OutputSink
    var published: @Sendable () async -> Void = {}

    func run() async throws {
        controller.start()
        await withGracefulShutdownHandler {
            await controller.finished()
        } onGracefulShutdown: {
            controller.stop()
        }
        await output.room()
        output.event(controller.current.statsEvent())
        await published()
    }
}

/// The socket as a service: served until shutdown, then closed and its file removed.
struct SocketService: Service {
    let server: SocketServer

    func run() async throws {
        try await server.start()
        try? await gracefulShutdown()
        await server.stop()
    }
}

/// systemd's side: READY=1 once the socket is served and the camera opened or waited for; STATUS= with a
/// one-line summary; WATCHDOG=1 only while the pipeline is healthy; STOPPING=1; and reload on SIGHUP.
struct SupervisorService: Service {
    let controller: PipelineController
    let hub: EventHub
    let hangups: UnixSignalsSequence
    /// The configuration the daemon started with: what a reload cannot apply stays as it is here.
    let running: ScandConfig
    let reload: @Sendable () throws -> ScandConfig
    let output: OutputSink

    func run() async throws {
        // The first DEVICE status (streaming or waiting) arrives within a moment of start.
        await controller.current.firstDeviceStatus(within: .seconds(1))
        Systemd.ready(status: StatusSummary.line(controller.current, hub: hub))
        let watchdog = Systemd.watchdogInterval()
        // Set, under the lock, when STOPPING=1 is sent: no WATCHDOG=1 or STATUS= may follow it (cancelling the
        // pinging task alone could not stop a ping already past its cancellation check).
        let stopped = NIOLockedValueBox(false)
        await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                let period = watchdog.map { $0 / 2 } ?? .seconds(5)
                while !Task.isCancelled {
                    try? await Task.sleep(for: period)
                    if Task.isCancelled { break }
                    let summary = StatusSummary.line(controller.current, hub: hub)
                    let healthy = watchdog.map { controller.current.isHealthy(within: $0) } ?? false
                    stopped.withLockedValue { stopped in
                        guard !stopped else { return }
                        Systemd.status(summary)
                        if healthy { Systemd.watchdog() }
                    }
                }
            }
            tasks.addTask {
                for await _ in hangups {
                    Systemd.reloading()
                    do {
                        let config = try reload()
                        let cameraChanges = await controller.apply(config)
                        let unapplied = Setting.unappliedChanges(from: running, to: config)
                        output.logger(
                            (cameraChanges.isEmpty
                                ? "configuration reloaded; capture continues"
                                : "configuration reloaded; the camera restarted for \(cameraChanges.joined(separator: ", "))")
                                + (unapplied.isEmpty ? "" : "; not applied, these need a restart: \(unapplied.joined(separator: ", "))"),
                            unapplied.isEmpty ? .notice : .warning)
                    } catch {
                        output.logger("reload refused, the running configuration stays: \(error)", .error)
                    }
                    Systemd.ready(status: StatusSummary.line(controller.current, hub: hub))
                }
            }
            try? await gracefulShutdown()
            stopped.withLockedValue { stopped in
                stopped = true
                Systemd.stopping()
            }
            tasks.cancelAll()
        }
    }
}

/// Where the daemon stands in one line, for systemd.
public enum StatusSummary {
    /// One line for systemctl status.
    public static func line(_ p: LivePipeline, hub: EventHub) -> String {
        let c = p.counters
        let camera: String
        if let d = p.deviceStatus {
            switch d.state {
            case .streaming: camera = "streaming \(d.device)" + (d.format.map { " \($0.width)x\($0.height)" } ?? "")
            case .waiting, .lost: camera = "waiting for \(d.device): \(d.reason ?? "")"
            case .stopped: camera = "stopped \(d.device)"
            }
        } else {
            camera = "opening the camera"
        }
        return "\(camera); \(c.decoded) frames decoded, \(c.scans) scans; \(hub.counters.watching) subscribers"
    }
}
