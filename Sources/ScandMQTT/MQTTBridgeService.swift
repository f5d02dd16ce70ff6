import Glibc
import Logging
import ScandClient
import ScandCore
import ScandLogging
import ScandProtocol
import ServiceLifecycle

/// `scand mqtt` running: carries out `MQTTBridge`'s actions in one loop over what the subscription,
/// libmosquitto's thread and the clock report, in arrival order, so a PUBACK is taken only after its publish
/// was recorded. The subscription's reader waits until the loop took each line and the window has room.
public struct MQTTBridgeService: Service {
    enum Input: Sendable {
        case bridge(MQTTBridge.Input)
        /// A step of the subscription; `taken` lets its reader read on.
        case daemon(SubscriptionLoop.Step, taken: CheckedContinuation<Void, Never>)
        /// The daemon refused the subscription: asking again would be refused again.
        case refused(DaemonError)
        case log(String, Logger.Level)
        /// Time to write the acknowledged position down.
        case flush
        /// The MQTT network loop has not turned for this long.
        case loopStuck(Duration)
        case stop
    }

    let settings: MQTTSettings
    let kioskID: String
    let password: String?
    /// The state file's position (nil without one: `settings.start` says where to begin).
    let acknowledged: EventPosition?
    /// The state file held a position at start (`acknowledged` is the journal's start too when it could
    /// not be read).
    var stateFileHeld: Bool
    /// PUBACKs taken within this are written to the state file in one write.
    var flushAfter: Duration = .milliseconds(50)
    var clock = ContinuousClock()
    /// scand's release, for the bridge's status messages.
    let release: String
    /// The exit status when the MQTT network loop hangs, for systemd to start the bridge again.
    let stuckExitStatus: Int32

    public init(
        settings: MQTTSettings, kioskID: String, password: String?, acknowledged: EventPosition?, stateFileHeld: Bool, release: String,
        stuckExitStatus: Int32
    ) {
        self.settings = settings
        self.kioskID = kioskID
        self.password = password
        self.acknowledged = acknowledged
        self.stateFileHeld = stateFileHeld
        self.release = release
        self.stuckExitStatus = stuckExitStatus
    }

    var brokerName: String { "\(settings.host):\(settings.effectivePort)" }

    /// Runs until a graceful shutdown. Throws what stops it from starting (exit status 78).
    public func run() async throws {
        let classes = Set(settings.classes.compactMap(Event.Class.init(rawValue:)))
        var bridge = MQTTBridge(
            kioskID: kioskID, topicPrefix: settings.topicPrefix, classes: classes, formats: settings.formats, maxInFlight: settings.maxInFlight,
            release: release, acknowledged: acknowledged, start: settings.start)
        let (inputs, post) = AsyncStream.makeStream(of: Input.self)
        let connection = try MQTTConnection(options(bridge)) { [brokerName] event in
            switch event {
            case .connected: post.yield(.bridge(.brokerConnected))
            case .refused(let why): post.yield(.log("the broker \(brokerName) refused the connection: \(why)", .error))
            case .disconnected(let why):
                post.yield(.bridge(.brokerDisconnected))
                post.yield(.log("broker connection lost: \(why)", .warning))
            case .delivered(let mid): post.yield(.bridge(.acknowledged(mid: mid)))
            case .problem(let text): post.yield(.log("broker \(brokerName): \(text)", .error))
            }
        }
        let from: String
        switch bridge.acknowledged {
        case MQTTBridge.journalStart?: from = "from the oldest event the daemon's journal keeps"
        case let position?: from = "resuming after \(position.json)"
        case nil: from = "from now on (start = \"now\")"
        }
        let published =
            classes.sorted().map(\.rawValue).joined(separator: ", ")
            + (settings.formats.map { " of \($0.members.map(\.name).joined(separator: ", "))" } ?? "")
        Logger.standardError(
            "publishing \(published) to \(brokerName) under \(settings.topicPrefix)/\(kioskID)/, \(from); state file \(settings.stateFile)", .info)
        try connection.start()
        var stateFile = PositionFile.Keeper(path: settings.stateFile, holdsPosition: stateFileHeld, setting: "[mqtt] state_file or --state-file")
        var brokerProblems: Set<String> = []
        var unsaved: EventPosition?
        var flushing = false
        /// The subscription's reader, waiting until the window has room again.
        var reader: CheckedContinuation<Void, Never>?
        var paused = false
        var refusal: DaemonError?

        func save() async {
            guard let position = unsaved else { return }
            unsaved = nil
            // Once until it works again: the position stays in memory, a restart would resume from an older one.
            if let (line, isError) = await stateFile.save(position) { Logger.standardError(line, isError ? .error : .info) }
        }

        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                /// Carries out `actions`, and what the bridge makes of their outcomes.
                func perform(_ actions: [MQTTBridge.Action]) {
                    for action in actions {
                        switch action {
                        case .subscribe(let watch):
                            subscribe(watch, in: &group, post: post)
                        case .pauseReading(let n):
                            paused = true
                            Logger.standardError(
                                "\(n) events wait for the broker's acknowledgement: reading from scand paused (its journal keeps what comes meanwhile)",
                                .warning)
                        case .resumeReading:
                            paused = false
                            reader?.resume()
                            reader = nil
                            Logger.standardError("reading from scand again", .info)
                        case .publish(let ticket, let topic, let payload):
                            do {
                                let mid = try connection.publish(topic: topic, payload: payload)
                                perform(bridge.handle(.published(ticket: ticket, mid: mid)))
                            } catch {
                                perform(bridge.handle(.publishFailed(ticket: ticket)))
                            }
                        case .publishStatus(let topic, let payload):
                            let mid = try? connection.publish(topic: topic, payload: payload, retain: true)
                            perform(bridge.handle(.statusPublished(mid: mid)))
                        case .persist(let position):
                            unsaved = position
                        case .log(let text):
                            Logger.standardError(text, .notice)
                        }
                    }
                }

                // A loop that hangs publishes nothing and the process stays up: only a new one helps.
                group.addTask { [clock] in
                    while (try? await clock.sleep(for: .seconds(5))) != nil {
                        if connection.loopIsStuck() {
                            post.yield(.loopStuck(connection.stuckAfter))
                            return
                        }
                    }
                }
                perform(bridge.start())
                await save()
                var stopped = false
                for await input in inputs {
                    // Stopping: what was posted meanwhile only lets its poster go on.
                    if stopped {
                        if case .daemon(_, let taken) = input { taken.resume() }
                        continue
                    }
                    switch input {
                    case .stop, .refused:
                        if case .refused(let error) = input { refusal = error }
                        await save()
                        // A clean stop is no lost connection: say offline ourselves (the will is for the other kind).
                        _ = try? connection.publish(topic: bridge.statusTopic, payload: bridge.offlinePayload, retain: true)
                        connection.disconnect()
                        let pending = bridge.inFlight
                        Logger.standardError(
                            pending == 0 ? "stopped" : "stopped; \(pending) events were not acknowledged: they come again with since next time", .info
                        )
                        reader?.resume()
                        reader = nil
                        stopped = true
                        post.finish()
                        group.cancelAll()
                        continue
                    case .log(let text, let level):
                        // Broker problems repeat on every reconnection attempt: each distinct one once per outage.
                        if text.hasPrefix("broker ") {
                            guard brokerProblems.insert(text).inserted else { continue }
                        }
                        Logger.standardError(text, level)
                    case .flush:
                        flushing = false
                        await save()
                    case .loopStuck(let after):
                        await save()
                        Logger.standardError(
                            "the MQTT network loop has not turned for \(Int(after.inSeconds)) s: exiting with status \(stuckExitStatus) for systemd to start scand mqtt again",
                            .error)
                        // Not through disconnect, which waits for the loop that hangs.
                        exit(stuckExitStatus)
                    case .bridge(let event):
                        if event == .brokerConnected {
                            brokerProblems.removeAll()
                            Logger.standardError("connected to the broker \(brokerName)", .info)
                        }
                        perform(bridge.handle(event))
                    case .daemon(.subscribed, let taken):
                        Logger.standardError("subscribed to scand at \(settings.socketPath)", .info)
                        perform(bridge.handle(.daemonConnected))
                        taken.resume()
                    case .daemon(.event(let line), let taken):
                        perform(bridge.handle(.line(line)))
                        if paused { reader = taken } else { taken.resume() }
                    case .daemon(.lost(_, let reason), let taken):
                        if let reason {
                            let since =
                                bridge.received.map { $0 == MQTTBridge.journalStart ? "from its journal's oldest event" : "since \($0.json)" }
                                ?? "live"
                            Logger.standardError("\(reason); subscribing again \(since)", .warning)
                        }
                        taken.resume()
                    }
                    // PUBACKs come in bursts: one write for those of the next few milliseconds.
                    if unsaved != nil, !flushing {
                        flushing = true
                        group.addTask { [clock, flushAfter] in
                            try? await clock.sleep(for: flushAfter)
                            post.yield(.flush)
                        }
                    }
                }
            }
        } onGracefulShutdown: {
            post.yield(.stop)
        }
        if let refusal { throw refusal }
    }

    /// The one subscription, run by its `SubscriptionLoop`, which hands each step to the bridge's loop and
    /// waits until that loop has taken it.
    private func subscribe(_ watch: ClientRequest.Watch, in group: inout DiscardingTaskGroup, post: AsyncStream<Input>.Continuation) {
        // A few lines read ahead: the window, not this buffer, bounds what waits for the broker.
        let subscription = EventSubscription(socketPath: settings.socketPath, watch: watch, reconnect: true, bufferLimit: 16)
        // The journal's start is a made-up position: said in words, not as a boot of zeros.
        var shown = watch
        let fromStart = shown.since == MQTTBridge.journalStart
        if fromStart { shown.since = nil }
        let from = fromStart ? " from the oldest event its journal keeps" : ""
        Logger.standardError("subscribing to scand at \(settings.socketPath)\(from): \(ClientRequest.watch(shown).line)", .info)
        group.addTask {
            do {
                try await SubscriptionLoop.run(subscription) { step in
                    await withCheckedContinuation { taken in
                        if case .terminated = post.yield(.daemon(step, taken: taken)) { taken.resume() }
                    }
                }
            } catch {
                post.yield(.refused(error as? DaemonError ?? .closed))
            }
        }
    }

    /// libmosquitto's options: the broker, the credentials, the retained will, the window.
    private func options(_ bridge: MQTTBridge) -> MQTTOptions {
        var options = MQTTOptions(host: settings.host, port: settings.effectivePort, clientID: "scand-\(kioskID)")
        options.keepalive = settings.keepalive
        options.username = settings.username
        options.password = password
        options.caFile = settings.caFile
        options.certFile = settings.certFile
        options.keyFile = settings.keyFile
        options.will = .init(topic: bridge.statusTopic, payload: bridge.offlinePayload, retain: true)
        // libmosquitto sends the whole window at once, and again after a reconnection: the window bounds both.
        options.maxInFlight = settings.maxInFlight
        return options
    }
}
