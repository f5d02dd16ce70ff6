import Logging
import ScandClient
import ScandProtocol
import ServiceLifecycle

/// The one subscription to the daemon's journaled events (those /events serves; /ws pages take SCAN,
/// UPDATE, LOST and DEVICE of them), relayed to the hub. A daemon that stops or restarts is subscribed to
/// again by `EventSubscription`, with its backoff, since the last event received: the hub misses nothing.
public struct EventRelay: Service {
    static let watch = ClientRequest.Watch(enable: true, classes: Set(EventStreamRequest.classes))

    let subscription: EventSubscription
    let hub: PageHub
    let metrics: WebMetrics
    let logger: Logger

    public init(socketPath: String, hub: PageHub, metrics: WebMetrics, logger: Logger) {
        subscription = EventSubscription(socketPath: socketPath, watch: Self.watch, reconnect: true)
        self.hub = hub
        self.metrics = metrics
        self.logger = logger
    }

    /// Until a graceful shutdown, which ends the subscription and then every page's stream.
    public func run() async throws {
        defer { hub.finish() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await subscription.run() }
            group.addTask {
                // One clock for every page's keepalive, not one per page.
                while true {
                    try await Task.sleep(for: PageHub.keepaliveInterval)
                    hub.keepalive()
                }
            }
            defer { group.cancelAll() }
            try await relay()
        }
    }

    private func relay() async throws {
        var lastProblem: String?
        for try await element in subscription {
            switch element {
            case .event(let line):
                switch line.eventClass {
                case .version: continue
                case .watch:
                    lastProblem = nil
                    metrics.subscribed.set(to: 1)
                    logger.info("subscribed to scand's events on \(subscription.socketPath)")
                case .error: logger.warning("scand: \(line.errorMessage ?? line.line)")
                default: hub.broadcast(line)
                }
            case .lost(let error):
                metrics.subscribed.set(to: 0)
                metrics.reconnects.increment()
                let problem = error == .closed ? "scand closed the event subscription" : error.description
                if problem != lastProblem { logger.warning("\(problem); subscribing again") }  // once per cause, not per retry
                lastProblem = problem
            }
        }
        metrics.subscribed.set(to: 0)
    }
}
