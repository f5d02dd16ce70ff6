import Foundation
import Logging
import ScandClient
import ScandProtocol
import ServiceLifecycle

/// The one subscription to the daemon's journaled events (those /events serves; the setup page takes SCAN,
/// UPDATE, LOST and DEVICE of them), relayed to the hub. A daemon that stops or restarts is subscribed to
/// again by `EventSubscription`, with its backoff, since the last event received: the hub misses nothing.
public struct EventRelay: Service {
    static let watch = ClientRequest.Watch(enable: true, classes: Set(EventStreamRequest.classes))
    /// Journaled events taken again at the start, for the pages' view of what is in view and was scanned.
    static let history = 200

    let socketPath: String
    let hub: PageHub
    let metrics: WebMetrics
    let logger: Logger

    public init(socketPath: String, hub: PageHub, metrics: WebMetrics, logger: Logger) {
        self.socketPath = socketPath
        self.hub = hub
        self.metrics = metrics
        self.logger = logger
    }

    /// Where the first subscription starts: the last `history` events the daemon's journal keeps (so a page
    /// opened now shows the code already in view and the last scans, though scand web started after them),
    /// or live when the daemon keeps no journal or does not answer yet.
    static func start(status line: String?) -> EventPosition? {
        guard let line, let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let journal = object["journal"] as? [String: Any], journal["state"] as? String == "on", let boot = journal["boot"] as? String,
            let first = journal["first"] as? Int, let last = journal["last"] as? Int, last >= first
        else { return nil }
        return EventPosition(boot: boot, seq: max(first, last - history))
    }

    /// Until a graceful shutdown, which ends the subscription and then every page's stream.
    public func run() async throws {
        do { try await relayUntilShutdown() } catch {
            await hub.finish()
            throw error
        }
        await hub.finish()
    }

    private func relayUntilShutdown() async throws {
        let status = try? await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask { try await DaemonClient.ask(.status, socketPath: socketPath).line }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        var watch = Self.watch
        watch.since = Self.start(status: status)
        let subscription = EventSubscription(socketPath: socketPath, watch: watch, reconnect: true)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // One clock for every page's keepalive, not one per page.
                while true {
                    try await Task.sleep(for: PageHub.keepaliveInterval)
                    await hub.keepalive()
                }
            }
            defer { group.cancelAll() }
            try await relay(subscription)
        }
    }

    private func relay(_ subscription: EventSubscription) async throws {
        defer { metrics.subscribed.set(to: 0) }
        try await SubscriptionLoop.run(subscription) { step in
            switch step {
            case .subscribed:
                metrics.subscribed.set(to: 1)
                logger.info("subscribed to scand's events on \(subscription.socketPath)")
            case .event(let line):
                switch line.eventClass {
                case .version, .watch: return
                case .error:
                    // The history asked for at the start, pruned since: what the journal keeps comes instead.
                    let message = line.errorMessage ?? line.line
                    if !message.contains("replaying all of those") { logger.warning("scand: \(message)") }
                default: await hub.broadcast(line)
                }
            case .lost(_, let reason):
                // What was in view may be gone by the time the daemon answers again.
                await hub.daemonLost()
                metrics.subscribed.set(to: 0)
                metrics.reconnects.increment()
                if let reason { logger.warning("\(reason); subscribing again") }
            }
        }
    }
}
