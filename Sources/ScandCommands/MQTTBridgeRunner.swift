import Dispatch
import Foundation
import ScandClient
import ScandCore
import ScandMQTT
import ScandService
import Synchronization

/// Drives `MQTTBridge`: one loop on the calling thread takes what the daemon's socket, libmosquitto's
/// thread and the signals report, in order, and carries out the bridge's actions. A PUBACK is reported
/// only after the publish that produced its message id was recorded, since both pass through this loop.
final class MQTTBridgeRunner {
    enum Input: Sendable {
        case bridge(MQTTBridge.Input)
        case log(String, LogLevel)
        case stop(Int32)
    }

    /// Inputs in arrival order; `take` blocks until there is one.
    final class Inbox: Sendable {
        private let items = Mutex<[Input]>([])
        private let ready = DispatchSemaphore(value: 0)

        func post(_ input: Input) {
            items.withLock { $0.append(input) }
            ready.signal()
        }

        /// Everything waiting (at least one input).
        func take() -> [Input] {
            ready.wait()
            let all = items.withLock { items in
                defer { items.removeAll() }
                return items
            }
            // One signal per post: consume the ones for the inputs taken along with the first.
            for _ in 0..<max(0, all.count - 1) { ready.wait() }
            return all
        }
    }

    let settings: MQTTSettings
    let kioskID: String
    let password: String?
    private let inbox = Inbox()
    private var bridge: MQTTBridge
    private var stateFile: PositionFile.Keeper
    private var brokerProblems: Set<String> = []

    /// `acknowledged`: the state file's position (nil without one: `settings.start` says where to begin).
    init(settings: MQTTSettings, kioskID: String, password: String?, acknowledged: EventPosition?) {
        self.settings = settings
        self.kioskID = kioskID
        self.password = password
        stateFile = PositionFile.Keeper(path: settings.stateFile)
        bridge = MQTTBridge(
            kioskID: kioskID, maxInFlight: settings.maxInFlight, release: ScandVersion.string, acknowledged: acknowledged, start: settings.start)
    }

    var brokerName: String { "\(settings.host):\(settings.effectivePort)" }

    /// Runs until SIGTERM or SIGINT; returns the exit status. Throws what stops it from starting.
    func run() throws(MQTTError) -> Int32 {
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
        let inbox = self.inbox
        let broker = brokerName
        let connection = try MQTTConnection(options) { event in
            switch event {
            case .connected: inbox.post(.bridge(.brokerConnected))
            case .refused(let why): inbox.post(.log("the broker \(broker) refused the connection: \(why)", .error))
            case .disconnected(let why): inbox.post(.bridge(.brokerDisconnected)); inbox.post(.log("broker connection lost: \(why)", .warning))
            case .delivered(let mid): inbox.post(.bridge(.acknowledged(mid: mid)))
            case .problem(let text): inbox.post(.log("broker \(broker): \(text)", .error))
            case .message: break
            }
        }
        let subscription = DaemonSubscription(path: settings.socketPath) { report in
            switch report {
            case .connected: inbox.post(.bridge(.daemonConnected))
            case .line(let line): inbox.post(.bridge(.line(line)))
            case .closed: inbox.post(.bridge(.daemonClosed))
            case .log(let text, let level): inbox.post(.log(text, level))
            }
        }
        let signals = [SIGTERM, SIGINT].map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { inbox.post(.stop(0)) }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }

        let from: String
        switch bridge.acknowledged {
        case MQTTBridge.journalStart?: from = "from the oldest event the daemon's journal keeps"
        case let position?: from = "resuming after \(position.json)"
        case nil: from = "from now on (start = \"now\")"
        }
        OutputSinkLog.write("publishing to \(brokerName) as kiosk \(kioskID), \(from); state file \(settings.stateFile)", .info)
        try connection.start()
        if let position = perform(bridge.start(), connection, subscription).last { save(position) }
        while true {
            var persist: EventPosition?
            for input in inbox.take() {
                switch input {
                case .stop(let status):
                    if let persist { save(persist) }
                    // A clean stop is no lost connection: say offline ourselves (the will is for the other kind).
                    _ = try? connection.publish(topic: bridge.statusTopic, payload: bridge.offlinePayload, retain: true)
                    connection.disconnect()
                    let pending = bridge.inFlight
                    OutputSinkLog.write(
                        pending == 0 ? "stopped" : "stopped; \(pending) events were not acknowledged: they come again with since next time", .info)
                    return status
                case .log(let text, let level):
                    // Broker problems repeat on every reconnection attempt: each distinct one once per outage.
                    if text.hasPrefix("broker ") {
                        guard brokerProblems.insert(text).inserted else { continue }
                    }
                    OutputSinkLog.write(text, level)
                case .bridge(let event):
                    if event == .brokerConnected {
                        brokerProblems.removeAll()
                        OutputSinkLog.write("connected to the broker \(brokerName)", .info)
                    }
                    for action in perform(bridge.handle(event), connection, subscription) { persist = action }
                }
            }
            // One write for all the PUBACKs taken together.
            if let persist { save(persist) }
        }
    }

    /// Carries out `actions`; returns the positions to persist.
    @discardableResult
    private func perform(_ actions: [MQTTBridge.Action], _ connection: MQTTConnection, _ subscription: DaemonSubscription) -> [EventPosition] {
        var persist: [EventPosition] = []
        for action in actions {
            switch action {
            case .subscribe(let request):
                subscription.start(request: request)
            case .pauseReading(let n):
                subscription.pause()
                OutputSinkLog.write(
                    "\(n) events wait for the broker's acknowledgement: reading from scand paused (its journal keeps what comes meanwhile)", .warning)
            case .resumeReading:
                subscription.resume()
                OutputSinkLog.write("reading from scand again", .info)
            case .publish(let ticket, let topic, let payload):
                do {
                    let mid = try connection.publish(topic: topic, payload: payload)
                    persist += perform(bridge.handle(.published(ticket: ticket, mid: mid)), connection, subscription)
                } catch {
                    persist += perform(bridge.handle(.publishFailed(ticket: ticket)), connection, subscription)
                }
            case .publishStatus(let topic, let payload):
                let mid = try? connection.publish(topic: topic, payload: payload, retain: true)
                persist += perform(bridge.handle(.statusPublished(mid: mid)), connection, subscription)
            case .persist(let position):
                persist.append(position)
            case .log(let text):
                OutputSinkLog.write(text, .notice)
            }
        }
        return persist
    }

    private func save(_ position: EventPosition) {
        // Once until it works again: the position stays in memory, a restart would resume from an older one.
        if let (line, isError) = stateFile.save(position) { OutputSinkLog.write(line, isError ? .error : .info) }
    }
}
