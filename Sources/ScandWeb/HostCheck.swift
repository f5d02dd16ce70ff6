import HTTPTypes
import Hummingbird

/// Refuses requests whose Host names anything but an IP address, `localhost` or a name in `[web] hosts`:
/// a page elsewhere that rebinds its own name to 127.0.0.1 (DNS rebinding) would otherwise read the
/// camera and post a rect of interest. WebSocket upgrades must also come from a page of this host
/// (Origin), since browsers let any page open a WebSocket anywhere.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let hosts: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authority = request.head.authority ?? ""
        guard Self.allowed(authority: authority, hosts: hosts) else {
            return WebApp.json(.forbidden, message: "host '\(authority.prefix(64))' is not served here; add it to [web] hosts")
        }
        if let origin = request.headers[.origin], !Self.sameSite(origin: origin, authority: authority) {
            return WebApp.json(.forbidden, message: "requests from another site's page are refused (Origin \(origin.prefix(64)))")
        }
        return try await next(request, context)
    }

    /// Whether a page at `origin` is this server's own. A browser sends its page's origin (`http://host:port`,
    /// or `null` from a sandboxed or local file); other clients send what they like (`ws://localhost`),
    /// and are no browser page that could be made to act for someone.
    static func sameSite(origin: String, authority: String) -> Bool {
        let lower = origin.lowercased()
        if lower == "null" { return false }
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return true }
        return lower == "http://\(authority.lowercased())" || lower == "https://\(authority.lowercased())"
    }

    /// Whether a request naming `authority` is served. None at all (an HTTP/1.0 client) is: browsers
    /// always send one.
    static func allowed(authority: String, hosts: Set<String>) -> Bool {
        if authority.isEmpty { return true }
        var host = Substring(authority.lowercased())
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return host[host.index(after: host.startIndex)..<close].allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        if host == "localhost" || hosts.contains(String(host)) { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
