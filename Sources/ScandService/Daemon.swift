import Foundation
import Logging
import ScandCapture
import ScandCore
import ScandLogging
import ScandProtocol
import ServiceLifecycle
import UnixSignals
import ScandEventLog
import ScandSocket
import ScandPipeline

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
        let stateDirectory = config[section: ServiceSettings.self].resolvedStateDirectory(environment: ProcessInfo.processInfo.environment)
        let events = EventLog(directory: stateDirectory, limits: config[section: JournalSettings.self].limits, log: log)
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
        let overridden: @Sendable (ScandConfig) async -> ScandConfig = { await cameraControls.applied(to: roi.applied(to: $0)) }
        let pipeline = PipelineService(config: await overridden(config), output: output, published: { await stage.drained() }) {
            pipelines.pipeline(for: $0, output: output, metrics: metrics)
        }
        // The journal's upkeep while no event comes (a removed or damaged file replaced, a full disk retried):
        // first in the group, so the last to stop.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: JournalUpkeep { stage.upkeep() })]
        if let listener {
            let controls = SocketControls(
                pipeline: pipeline, hub: hub, console: console, roi: roi, cameraControls: cameraControls, metrics: metrics, events: events)
            let server = SocketServer(
                listener: listener, hub: hub, maxRequestBytes: config.maxRequestBytes, requestTimeout: config.requestTimeout,
                daemon: controls.daemonControls, adminGroup: config.adminGroup, log: output.logger)
            let claim = try server.claim()
            // Bound once the group runs, when SIGTERM is already handled: a client that sees the socket
            // may stop the daemon at once. A failure to bind stops the rest gracefully and is thrown.
            services.append(.init(service: SocketService(server: server, claim: claim), failureTerminationBehavior: .gracefullyShutdownGroup))
        }
        // The banner once the socket is claimed: a daemon refused (another scand holds the path) prints nothing on
        // stdout, only its one line on stderr. Nothing before this writes an event.
        output.event(.version(VersionInfo.banner))
        services.append(.init(service: pipeline, successTerminationBehavior: .gracefullyShutdownGroup))
        let reload = self.reload
        services.append(
            .init(
                service: SupervisorService(
                    pipeline: pipeline, hub: hub, hangups: hangups, running: config, reload: { await overridden(try reload()) },
                    output: output)))
        var logger = log  // the group's own lines (a service that failed) are the daemon's lines too
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        // STATS and the last events reach a stdout that is read; one that is not cannot hold up the exit.
        await stage.drained()
        await console.drain(within: .seconds(1))
        return await pipeline.current.failure
    }
}
