import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ScandClient
import ScandCore
import ScandProtocol
import ServiceLifecycle
import UnixSignals

/// The routes of `scand web`: the page, the daemon's answers as JSON, the event stream (/events, the page's
/// too) and /metrics.
public enum WebApp {
    public typealias Context = WebRequestContext

    /// The router, for the application and for tests (`.router` test clients).
    /// - Parameters:
    ///   - daemon: the page's requests to the daemon, one kept connection for them all.
    ///   - scrapes: /metrics' requests, on a connection of their own so that a scrape never waits behind
    ///     the pages' snapshots and says the daemon is down when it is only busy; nil: `daemon`'s.
    ///   - allowedOrigins: `[web] allowed_origins`, pages of other origins that may read.
    ///   - token: `[web] token`; "" for none.
    public static func router(
        daemon: DaemonClient, scrapes: DaemonClient? = nil, hub: PageHub, metrics: WebMetrics, hosts: [String] = [],
        allowedOrigins: [String] = [], token: String = "", eventStreams: EventStreamLimits = EventStreamLimits()
    ) -> Router<Context> {
        let router = Router(context: Context.self)
        router.middlewares.add(HostCheck<Context>(hosts: Set(hosts), origins: OriginPolicy(allowed: allowedOrigins), metrics: metrics))
        if let token = AccessToken(token) { router.middlewares.add(TokenCheck<Context>(token: token, metrics: metrics)) }
        addPage(to: router)
        addDaemonRequests(to: router, daemon: daemon)
        addMetrics(to: router, scrapes: scrapes ?? daemon, metrics: metrics)
        router.get("/events") { request, context in
            await EventStreamRoute.response(
                request, context: context, hub: hub, socketPath: daemon.socketPath, limits: eventStreams, metrics: metrics)
        }
        return router
    }

    /// The page's files, compiled into the binary (SwiftPM `embedInCode`): a kiosk has no internet and the
    /// package ships no asset directory.
    private static func addPage(to router: Router<Context>) {
        for (path, bytes, contentType) in [
            ("/", PackageResources.index_html, "text/html; charset=utf-8"),
            ("/app.js", PackageResources.app_js, "text/javascript; charset=utf-8"),
            ("/style.css", PackageResources.style_css, "text/css; charset=utf-8")
        ] {
            router.get(RouterPath(path)) { _, _ in
                var headers = pageHeaders
                headers[.contentType] = contentType
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
        }
    }

    /// The page's requests to the daemon: its status, a snapshot, the rect of interest and camera controls.
    private static func addDaemonRequests(to router: Router<Context>, daemon: DaemonClient) {
        router.get("/api/status") { _, _ in
            await forward(.status, to: daemon, whenRefused: .badGateway)
        }
        router.get("/api/snapshot") { _, _ in
            // "no frame to show" (no camera yet): unavailable for now, as when the daemon is down.
            await forward(.snapshot, to: daemon, whenRefused: .serviceUnavailable)
        }
        router.post("/api/roi") { request, _ in
            // A cross-site form cannot set a custom header: only a script of this page (same origin) can.
            guard request.headers[requestMarker] == "1" else {
                return json(.forbidden, message: "setting the rect of interest needs the header X-Scand-Request: 1")
            }
            let body = try await request.body.collect(upTo: 1024)
            let rect: RegionOfInterestBody
            do { rect = try RegionOfInterestBody(json: body) } catch { return json(.badRequest, message: "\(error)") }
            return await forward(rect.request, to: daemon, whenRefused: .forbidden)
        }
        router.get("/api/controls") { _, _ in
            // The daemon says why there are none (a recording, a camera not open) in its ERROR.
            await forward(.cameraControls, to: daemon, whenRefused: .serviceUnavailable)
        }
        router.post("/api/controls") { request, _ in
            guard request.headers[requestMarker] == "1" else {
                return json(.forbidden, message: "setting camera controls needs the header X-Scand-Request: 1")
            }
            // Checked here by the protocol's own decoder, so a wrong body gets 400 with its reason and never
            // reaches the daemon; the request's encoder writes it on one line whatever the body's layout.
            let body = String(decoding: try await request.body.collect(upTo: 16 * 1024).readableBytesView, as: UTF8.self)
            let change: CameraControlChange
            do { change = try ClientRequest.cameraControlChange(json: body) } catch { return json(.badRequest, message: "\(error)") }
            // Refused: not an admin, or a value the camera does not take; the message says which.
            return await forward(.setCameraControls(change), to: daemon, whenRefused: .unprocessableContent)
        }
    }

    /// /metrics: the daemon's metrics and scand web's own, one scrape.
    private static func addMetrics(to router: Router<Context>, scrapes: DaemonClient, metrics: WebMetrics) {
        router.get("/metrics") { _, _ in
            var text = ""
            if case .metrics(let daemonText)? = try? await scrapes.request(.metrics).event {
                text = daemonText.hasSuffix("\n") || daemonText.isEmpty ? daemonText : daemonText + "\n"
                metrics.daemonUp.set(to: 1)
            } else {
                metrics.daemonUp.set(to: 0)
            }
            text += metrics.text()
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }

    /// `scand web` running until SIGTERM or SIGINT: the HTTP application and the daemon subscription, two
    /// services of one group; `onServing` gets the address actually bound (the port, when 0 was asked for).
    public static func run(settings: WebSettings, logger: Logger, onServing: @escaping @Sendable (String) -> Void) async throws {
        let limits = WebServerLimits()
        let daemon = DaemonClient(socketPath: settings.socket)
        let scrapes = DaemonClient(socketPath: settings.socket)
        let hub = PageHub()
        let metrics = WebMetrics()
        let router = router(
            daemon: daemon, scrapes: scrapes, hub: hub, metrics: metrics, hosts: settings.hosts, allowedOrigins: settings.allowedOrigins,
            token: settings.token)
        let app = application(
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
        // Shut down in reverse order: the relay first ends every page's event stream, then the server stops.
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: app), .init(service: relay)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
    }

    /// The application: HTTP/1 on `listen`, within `limits`, and the daemon clients' connections kept as its
    /// services.
    public static func application(
        router: Router<Context>, daemon: DaemonClient, scrapes: DaemonClient? = nil, metrics: WebMetrics, listen: ListenAddress, logger: Logger,
        limits: WebServerLimits = WebServerLimits(), onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var app = Application(
            router: router,
            server: server(limits: limits, metrics: metrics),
            configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: nil),
            onServerRunning: onServerRunning,
            logger: logger
        )
        app.addServices(daemon)
        if let scrapes, scrapes !== daemon { app.addServices(scrapes) }
        return app
    }

    /// HTTP/1, its connections counted, their heads bounded in time and size.
    static func server(limits: WebServerLimits, metrics: WebMetrics) -> HTTPServerBuilder {
        let connections = Slots(max: limits.maxConnections)
        var decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        decoder.maxHeaderFieldSize = limits.maxHeaderBytes
        decoder.maxHeaderListSize = limits.maxHeaderBytes
        let configuration = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ParseErrorResponder(), RequestBodyDeadline(timeout: limits.bodyTimeout)],
            idleTimeout: TimeAmount(limits.idleTimeout),
            httpDecoderConfiguration: decoder)
        return HTTPServerBuilder { responder in
            GuardedHTTPChannel(
                inner: HTTP1Channel(responder: responder, configuration: configuration), limits: limits, connections: connections,
                metrics: metrics)
        }
    }

    static let requestMarker = HTTPField.Name("X-Scand-Request")!

    /// The page is this server's only content: no framing elsewhere, nothing loaded from elsewhere.
    static let pageHeaders: HTTPFields = [
        .cacheControl: "no-cache",
        .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer"
    ]

    /// The daemon's answer as the response: the line itself when it answers the request, its ERROR's
    /// message with `whenRefused`, 502 for another line, 503 when the daemon does not answer.
    static func forward(_ request: ClientRequest, to daemon: DaemonClient, whenRefused: HTTPResponse.Status) async -> Response {
        let answer: ReceivedEvent
        do { answer = try await daemon.request(request) } catch {
            switch error {
            case .refusedRequest(let message): return json(whenRefused, message: message)
            case .protocolViolation(let message): return json(.badGateway, message: message)
            default: return json(.serviceUnavailable, message: error.description)
            }
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: answer.line + "\n")))
    }

    /// A one-line JSON `{"message": …}` response.
    static func json(_ status: HTTPResponse.Status, message: String) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: ["message": message], options: [.withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data + [UInt8(ascii: "\n")])))
    }
}
