import Hummingbird
import Logging
import NIOCore
import ScandClient
import ScandCore
import ServiceLifecycle
import UnixSignals

/// `scand web` running: the HTTP application and the daemon subscription, two services of one group,
/// both stopping gracefully on SIGTERM and SIGINT.
public struct WebServer: Sendable {
    public var settings: WebSettings
    public var logger: Logger
    public var limits: WebServerLimits

    public init(settings: WebSettings, logger: Logger, limits: WebServerLimits = WebServerLimits()) {
        self.settings = settings
        self.logger = logger
        self.limits = limits
    }

    /// Runs until a signal; `onServing` gets the address actually bound (the port, when 0 was asked for).
    public func run(onServing: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let daemon = DaemonClient(socketPath: settings.socket)
        let scrapes = DaemonClient(socketPath: settings.socket)
        let hub = PageHub()
        let metrics = WebMetrics()
        let router = WebApp.router(
            daemon: daemon, scrapes: scrapes, hub: hub, metrics: metrics, hosts: settings.hosts, allowedOrigins: settings.allowedOrigins,
            token: settings.token, limits: limits)
        let app = WebApp.application(
            router: router, daemon: daemon, scrapes: scrapes, metrics: metrics, listen: settings.listen, logger: logger, limits: limits
        ) {
            channel in
            let address =
                channel.localAddress.map { a -> String in
                    let ip = a.ipAddress ?? "?"
                    return ip.contains(":") ? "[\(ip)]:\(a.port ?? 0)" : "\(ip):\(a.port ?? 0)"
                } ?? "\(settings.listen)"
            onServing("http://\(address)/")
        }
        let relay = EventRelay(socketPath: settings.socket, hub: hub, metrics: metrics, logger: logger)
        // Shut down in reverse order: the relay first ends every page's WebSocket, then the server stops.
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: app), .init(service: relay)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
    }
}
