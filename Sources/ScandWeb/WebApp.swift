import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ScandClient
import ScandCore
import ScandProtocol

/// The routes of `scand web`: the page, the daemon's answers as JSON, the event WebSocket, the event
/// stream (/events) and /metrics.
public enum WebApp {
    public typealias Context = WebRequestContext

    /// The router, for the application and for tests (`.router` test clients).
    /// - Parameters:
    ///   - allowedOrigins: `[web] allowed_origins`, pages of other origins that may read.
    ///   - token: `[web] token`; "" for none.
    public static func router(
        daemon: DaemonClient, hub: EventHub, metrics: WebMetrics, hosts: [String] = [], allowedOrigins: [String] = [], token: String = "",
        eventStreams: EventStreamLimits = EventStreamLimits()
    ) -> Router<Context> {
        let router = Router(context: Context.self)
        router.middlewares.add(HostCheck<Context>(hosts: Set(hosts), origins: OriginPolicy(allowed: allowedOrigins), metrics: metrics))
        if let token = AccessToken(token) { router.middlewares.add(TokenCheck<Context>(token: token, metrics: metrics)) }
        for (path, asset) in WebAssets.byPath {
            router.get(RouterPath(path)) { _, _ in
                var headers = pageHeaders
                headers[.contentType] = asset.contentType
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
            }
        }
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
        router.get("/metrics") { _, _ in
            var text = ""
            if case .metrics(let daemonText)? = try? await daemon.request(.metrics).event {
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
        router.get("/events") { request, context in
            EventStreamRoute.response(
                request, context: context, hub: hub, socketPath: daemon.socketPath, limits: eventStreams, metrics: metrics)
        }
        router.ws("/ws") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            metrics.webSockets.increment()
            defer { metrics.webSockets.decrement() }
            let items = hub.subscribe().items
            try await withThrowingTaskGroup(of: Void.self) { group in
                // The page sends nothing; its close (or a broken connection) ends the inbound stream.
                group.addTask { for try await _ in inbound {} }
                group.addTask {
                    for await item in items {
                        guard case .event(let line) = item, webSocketClasses.contains(line.eventClass) else { continue }
                        try await outbound.write(.text(line.line))
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        return router
    }

    /// The application: HTTP/1 with WebSocket upgrades on `listen`, and the daemon client's connection
    /// kept as one of its services.
    public static func application(
        router: Router<Context>, daemon: DaemonClient, listen: ListenAddress, logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: nil),
            onServerRunning: onServerRunning,
            logger: logger
        )
        app.addServices(daemon)
        return app
    }

    static let requestMarker = HTTPField.Name("X-Scand-Request")!

    /// What the setup page draws and lists; /events serves every journaled class.
    static let webSocketClasses: Set<Event.Class> = [.scan, .update, .lost, .device]

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
