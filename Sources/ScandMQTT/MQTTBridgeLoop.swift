import Glibc
import Logging
import ScandClient
import ScandCore
import ScandLogging
import ScandProtocol

/// One run of `MQTTBridgeService`: the bridge's state machine and what carries out its actions, owned by the
/// run's loop (one task), which hands it each input in arrival order.
struct MQTTBridgeLoop {
    typealias Input = MQTTBridgeService.Input

    let service: MQTTBridgeService
    let connection: MQTTConnection
    let post: AsyncStream<Input>.Continuation
    var bridge: MQTTBridge
    var stateFile: PositionFile.Keeper
    /// Broker problems said in this outage: each distinct one once.
    var brokerProblems: Set<String> = []
    /// A position acknowledged and not yet written to the state file.
    var unsaved: EventPosition?
    /// A `.flush` is on its way.
    var flushing = false
    /// The subscription's reader, waiting until the window has room again.
    var reader: CheckedContinuation<Void, Never>?
    var paused = false
    /// Why the daemon refused the subscription, thrown by `run` once stopped.
    var refusal: DaemonError?
    var stopped = false

    init(_ service: MQTTBridgeService, bridge: MQTTBridge, connection: MQTTConnection, post: AsyncStream<Input>.Continuation) {
        self.service = service
        self.bridge = bridge
        self.connection = connection
        self.post = post
        stateFile = PositionFile.Keeper(
            path: service.settings.stateFile, holdsPosition: service.stateFileHeld, setting: "[mqtt] state_file or --state-file")
    }

    mutating func start(in group: inout DiscardingTaskGroup) async {
        let actions = bridge.start()
        perform(actions, in: &group)
        await save()
    }

    /// Takes one input: what the bridge makes of it carried out, then a flush planned if a position waits.
    mutating func take(_ input: Input, in group: inout DiscardingTaskGroup) async {
        // Stopping: what was posted meanwhile only lets its poster go on.
        if stopped {
            if case .daemon(_, let taken) = input { taken.resume() }
            return
        }
        switch input {
        case .stop:
            await stop(in: &group)
            return
        case .refused(let error):
            refusal = error
            await stop(in: &group)
            return
        case .log(let text, let level):
            // Broker problems repeat on every reconnection attempt: each distinct one once per outage.
            if text.hasPrefix("broker ") {
                guard brokerProblems.insert(text).inserted else { return }
            }
            Logger.standardError(text, level)
        case .flush:
            flushing = false
            await save()
        case .loopStuck(let after):
            await save()
            Logger.standardError(
                "the MQTT network loop has not turned for \(Int(after.inSeconds)) s: exiting with status \(service.stuckExitStatus) for systemd to start scand mqtt again",
                .error)
            // Not through disconnect, which waits for the loop that hangs.
            exit(service.stuckExitStatus)
        case .bridge(let event):
            if event == .brokerConnected {
                brokerProblems.removeAll()
                Logger.standardError("connected to the broker \(service.brokerName)", .info)
            }
            handle(event, in: &group)
        case .daemon(let step, let taken):
            take(step, taken: taken, in: &group)
        }
        flushSoon(in: &group)
    }

    private mutating func take(_ step: SubscriptionLoop.Step, taken: CheckedContinuation<Void, Never>, in group: inout DiscardingTaskGroup) {
        switch step {
        case .subscribed:
            Logger.standardError("subscribed to scand at \(service.settings.socketPath)", .info)
            handle(.daemonConnected, in: &group)
            taken.resume()
        case .event(let line):
            handle(.line(line), in: &group)
            if paused { reader = taken } else { taken.resume() }
        case .lost(_, let reason):
            if let reason {
                let since =
                    bridge.received.map { $0 == MQTTBridge.journalStart ? "from its journal's oldest event" : "since \($0.json)" } ?? "live"
                Logger.standardError("\(reason); subscribing again \(since)", .warning)
            }
            taken.resume()
        }
    }

    private mutating func handle(_ input: MQTTBridge.Input, in group: inout DiscardingTaskGroup) {
        let actions = bridge.handle(input)
        perform(actions, in: &group)
    }

    /// Carries out `actions`, and what the bridge makes of their outcomes.
    private mutating func perform(_ actions: [MQTTBridge.Action], in group: inout DiscardingTaskGroup) {
        for action in actions {
            switch action {
            case .subscribe(let watch):
                service.subscribe(watch, in: &group, post: post)
            case .pauseReading(let n):
                paused = true
                Logger.standardError(
                    "\(n) events wait for the broker's acknowledgement: reading from scand paused (its journal keeps what comes meanwhile)", .warning)
            case .resumeReading:
                paused = false
                letReaderGo()
                Logger.standardError("reading from scand again", .info)
            case .publish(let ticket, let topic, let payload):
                do {
                    let mid = try connection.publish(topic: topic, payload: payload)
                    handle(.published(ticket: ticket, mid: mid), in: &group)
                } catch {
                    handle(.publishFailed(ticket: ticket), in: &group)
                }
            case .publishStatus(let topic, let payload):
                let mid = try? connection.publish(topic: topic, payload: payload, retain: true)
                handle(.statusPublished(mid: mid), in: &group)
            case .persist(let position):
                unsaved = position
            case .log(let text):
                Logger.standardError(text, .notice)
            }
        }
    }

    /// A stop or a refusal: the position saved, offline said, the broker left and every task ended.
    private mutating func stop(in group: inout DiscardingTaskGroup) async {
        await save()
        // A clean stop is no lost connection: say offline ourselves (the will is for the other kind).
        _ = try? connection.publish(topic: bridge.statusTopic, payload: bridge.offlinePayload, retain: true)
        connection.disconnect()
        let pending = bridge.inFlight
        Logger.standardError(
            pending == 0 ? "stopped" : "stopped; \(pending) events were not acknowledged: they come again with since next time", .info)
        letReaderGo()
        stopped = true
        post.finish()
        group.cancelAll()
    }

    private mutating func letReaderGo() {
        reader?.resume()
        reader = nil
    }

    /// PUBACKs come in bursts: one write for those of the next few milliseconds.
    private mutating func flushSoon(in group: inout DiscardingTaskGroup) {
        guard unsaved != nil, !flushing else { return }
        flushing = true
        group.addTask { [clock = service.clock, flushAfter = service.flushAfter, post] in
            try? await clock.sleep(for: flushAfter)
            post.yield(.flush)
        }
    }

    mutating func save() async {
        guard let position = unsaved else { return }
        unsaved = nil
        // Once until it works again: the position stays in memory, a restart would resume from an older one.
        if let (line, isError) = await stateFile.save(position) { Logger.standardError(line, isError ? .error : .info) }
    }
}
