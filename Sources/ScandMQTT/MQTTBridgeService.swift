import Logging
import ScandClient
import ScandCore
import ScandLogging
import ScandProtocol
import ServiceLifecycle

/// `scand mqtt` running: carries out `MQTTBridge`'s actions in one loop (`MQTTBridgeLoop`) over what the
/// subscription, libmosquitto's thread and the clock report, in arrival order, so a PUBACK is taken only after
/// its publish was recorded. The subscription's reader waits until the loop took each line and the window has room.
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
        let bridge = MQTTBridge(
            kioskID: kioskID, topicPrefix: settings.topicPrefix, classes: classes, formats: settings.formats, maxInFlight: settings.maxInFlight,
            release: release, acknowledged: acknowledged, start: settings.start)
        let (inputs, post) = AsyncStream.makeStream(of: Input.self)
        let connection = try MQTTConnection(options(bridge), handler: connectionEvents(post))
        announce(bridge, classes: classes)
        try connection.start()
        var loop = MQTTBridgeLoop(self, bridge: bridge, connection: connection, post: post)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                watchdog(connection, post: post, in: &group)
                await loop.start(in: &group)
                for await input in inputs { await loop.take(input, in: &group) }
            }
        } onGracefulShutdown: {
            post.yield(.stop)
        }
        if let refusal = loop.refusal { throw refusal }
    }

    /// What libmosquitto's thread reports, posted to the bridge's loop.
    private func connectionEvents(_ post: AsyncStream<Input>.Continuation) -> @Sendable (MQTTEvent) -> Void {
        { [brokerName] event in
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
    }

    /// What is published, where to, and from where on.
    private func announce(_ bridge: MQTTBridge, classes: Set<Event.Class>) {
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
    }

    /// A loop that hangs publishes nothing and the process stays up: only a new one helps.
    private func watchdog(_ connection: MQTTConnection, post: AsyncStream<Input>.Continuation, in group: inout DiscardingTaskGroup) {
        group.addTask { [clock] in
            while (try? await clock.sleep(for: .seconds(5))) != nil {
                if connection.loopIsStuck() {
                    post.yield(.loopStuck(connection.stuckAfter))
                    return
                }
            }
        }
    }

    /// The one subscription, run by its `SubscriptionLoop`, which hands each step to the bridge's loop and
    /// waits until that loop has taken it.
    func subscribe(_ watch: ClientRequest.Watch, in group: inout DiscardingTaskGroup, post: AsyncStream<Input>.Continuation) {
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
