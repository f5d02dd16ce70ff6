import Prometheus

/// `scand web`'s own metrics, in a registry of its own; /metrics serves them after the daemon's.
public final class WebMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    /// 1 when the daemon answered this scrape's `?METRICS;`.
    let daemonUp: Gauge
    /// 1 while the event subscription is connected.
    let subscribed: Gauge
    /// HTTP connections served (at most `WebServerLimits.maxConnections`).
    let connections: Gauge
    /// Times the event subscription was lost or could not be made, and tried again.
    let reconnects: Counter
    /// Clients of /events.
    let eventStreams: Gauge
    /// /events clients disconnected for not keeping up.
    let eventStreamsDropped: Counter
    /// Requests refused, by reason: `host` (DNS rebinding), `origin` (another site's page), `token`.
    let refusedHost: Counter
    let refusedOrigin: Counter
    let refusedToken: Counter

    public init() {
        func name(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "scand", subsystem: "web", metricName: name, unitName: unit, helpText: help)
        }
        daemonUp = registry.makeGauge(descriptor: name("daemon_up", "", "1 when scand answered scand web's last metrics request, else 0."))
        subscribed = registry.makeGauge(descriptor: name("event_subscription_up", "", "1 while scand web is subscribed to scand's events."))
        connections = registry.makeGauge(descriptor: name("connections", "", "HTTP connections scand web serves now."))
        reconnects = registry.makeCounter(
            descriptor: name(
                "daemon_reconnects", "total",
                "Times scand web's event subscription was lost or refused and tried again."))
        eventStreams = registry.makeGauge(descriptor: name("event_streams", "", "Clients of scand web's /events (Server-Sent Events)."))
        eventStreamsDropped = registry.makeCounter(
            descriptor: name("event_streams_dropped", "total", "/events clients disconnected for not keeping up (they resume from the journal)."))
        let refused = name(
            "requests_refused", "total",
            "Requests refused: another host (host), another site's page (origin), no or a wrong token (token).")
        refusedHost = registry.makeCounter(descriptor: refused, labels: [("reason", "host")])
        refusedOrigin = registry.makeCounter(descriptor: refused, labels: [("reason", "origin")])
        refusedToken = registry.makeCounter(descriptor: refused, labels: [("reason", "token")])
        daemonUp.set(to: 0)
        subscribed.set(to: 0)
    }

    public func text() -> String { registry.emitToString() }
}
