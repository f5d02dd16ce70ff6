import HTTPTypes
import ScandCore

/// Which browser pages may ask what, by their `Origin`: this server's own page anything; a page of an
/// origin of `[web] allowed_origins` only the routes that read (the event stream, the read-only API), with
/// CORS answers; any other page nothing. A request without `Origin` is no page's script (curl, Prometheus,
/// a navigation) and is left to the other checks.
struct OriginPolicy: Sendable {
    /// Exact origins, as `WebSettings.origin` writes them.
    let allowed: Set<String>

    init(allowed: some Sequence<String> = []) {
        self.allowed = Set(allowed.compactMap(WebSettings.origin))
    }

    enum Verdict: Sendable, Equatable {
        /// No `Origin`, or this server's own page: nothing to add.
        case sameOrigin
        /// A page of an allowed origin, on a route open to it: the answer carries CORS headers for it.
        case crossOrigin(String)
        /// 403, with the reason.
        case refused(String)
    }

    /// The routes a page of another origin may use: they read and change nothing.
    static let openRoutes: Set<String> = ["/events", "/api/status", "/api/snapshot"]

    static func isOpen(method: HTTPRequest.Method, path: String) -> Bool {
        [.get, .head, .options].contains(method) && openRoutes.contains(path)
    }

    func verdict(method: HTTPRequest.Method, path: String, origin: String?, authority: String) -> Verdict {
        guard let origin else { return .sameOrigin }
        if Self.sameSite(origin: origin, authority: authority) { return .sameOrigin }
        let quoted = origin.prefix(64)
        guard let normalized = WebSettings.origin(origin), allowed.contains(normalized) else {
            return .refused("requests from another site's page are refused (Origin \(quoted)); allow it in [web] allowed_origins")
        }
        guard Self.isOpen(method: method, path: path) else {
            return .refused("a page of \(quoted) may only read: GET /events, /api/status and /api/snapshot")
        }
        return .crossOrigin(normalized)
    }

    /// Whether a page at `origin` is this server's own: `http://` or `https://` and the Host the request
    /// names. Any other scheme (an extension's, `file://`, an app's) and `null` (a sandboxed or local page)
    /// are not: such a page could read live scans.
    static func sameSite(origin: String, authority: String) -> Bool {
        guard !authority.isEmpty else { return false }
        let lower = origin.lowercased(), host = authority.lowercased()
        return lower == "http://\(host)" || lower == "https://\(host)"
    }

    // CORS answers. `Vary: Origin` on every answer of an open route, whoever asked: a cache must not serve
    // one origin's answer to another.

    static let vary = HTTPField(name: .vary, value: "Origin")

    /// The headers of an answer to an allowed origin's request. Credentials (the token's cookie) are
    /// allowed: the origin is trusted by name, and EventSource's `withCredentials` needs it.
    static func responseHeaders(origin: String) -> [HTTPField] {
        [
            HTTPField(name: .accessControlAllowOrigin, value: origin),
            HTTPField(name: .accessControlAllowCredentials, value: "true"),
            vary
        ]
    }

    /// The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin on
    /// an open route: GET only, with the headers a reading page sends (the token, EventSource's
    /// `Last-Event-ID`); nil when the method asked for is not GET (the caller answers 403).
    static func preflightHeaders(origin: String, requestedMethod: String) -> [HTTPField]? {
        guard ["GET", "HEAD"].contains(requestedMethod.uppercased()) else { return nil }
        return responseHeaders(origin: origin) + [
            HTTPField(name: .accessControlAllowMethods, value: "GET, HEAD"),
            HTTPField(name: .accessControlAllowHeaders, value: "Authorization, Last-Event-ID, Cache-Control"),
            HTTPField(name: .accessControlMaxAge, value: "600")
        ]
    }
}
