import HTTPTypes
import Hummingbird

/// Refuses requests whose Host names anything but an IP address, `localhost` or a name in `[web] hosts`:
/// a page elsewhere that rebinds its own name to 127.0.0.1 (DNS rebinding) would otherwise read the
/// camera and post a rect of interest. A malformed Host, or two of them, is refused too. Requests from a
/// browser page (Origin) must come from this server's own page or an origin in `origins`: browsers let any
/// page, extension or local file open a WebSocket anywhere, and only the Origin tells them apart.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let hosts: Set<String>
    /// Origins allowed besides the page's own (`scheme://host[:port]`, compared case-insensitively).
    var origins: Set<String> = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authority = request.head.authority ?? ""
        // HTTPTypes keeps the first Host as the authority and any further one among the fields.
        if let host = HTTPField.Name("Host"), request.headers[host] != nil {
            return WebApp.json(.badRequest, message: "more than one Host header")
        }
        guard Self.allowed(authority: authority, hosts: hosts) else {
            return WebApp.json(.forbidden, message: "host '\(authority.prefix(64))' is not served here; add it to [web] hosts")
        }
        if let origin = request.headers[.origin], !Self.sameSite(origin: origin, authority: authority, origins: origins) {
            return WebApp.json(.forbidden, message: "requests from another site's page are refused (Origin \(origin.prefix(64)))")
        }
        return try await next(request, context)
    }

    /// Whether a page at `origin` may ask: this server's own page (`http://` or `https://` and the Host the
    /// request names) or an origin of `origins`. Any other scheme (an extension's, `file://`, an app's) and
    /// `null` (a sandboxed or local page) are refused: such a page could read live scans. Clients that are no
    /// browser page send no Origin, or (WebSocket client libraries, swift-websocket's among them) the
    /// `ws://`/`wss://` address they asked for: no browser sends that as a page's origin, so it is accepted
    /// when it names the same host as Host.
    static func sameSite(origin: String, authority: String, origins: Set<String> = []) -> Bool {
        let lower = origin.lowercased()
        if origins.contains(where: { $0.lowercased() == lower }) { return true }
        guard !authority.isEmpty else { return false }
        let own = authority.lowercased()
        if lower == "http://\(own)" || lower == "https://\(own)" { return true }
        for scheme in ["ws://", "wss://"] where lower.hasPrefix(scheme) {
            let named = lower.dropFirst(scheme.count)
            return named == own || named == Self.hostPart(of: own) || Self.hostPart(of: String(named)) == Self.hostPart(of: own)
        }
        return false
    }

    /// `host` of `host[:port]` (an IPv6 address keeps its brackets).
    static func hostPart(of authority: String) -> Substring {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") { return authority[...end] }
        return authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    /// Whether a request naming `authority` (`host[:port]`) is served: an IPv4 address, a bracketed IPv6
    /// address, `localhost` or a name of `hosts`, with at most a numeric port. None at all (an HTTP/1.0
    /// client) is: browsers always send one.
    static func allowed(authority: String, hosts: Set<String>) -> Bool {
        if authority.isEmpty { return true }
        let lower = authority.lowercased()
        let host: Substring
        let port: Substring?
        if lower.hasPrefix("[") {
            guard let close = lower.firstIndex(of: "]") else { return false }
            let address = lower[lower.index(after: lower.startIndex)..<close]
            let rest = lower[lower.index(after: close)...]
            guard isIPv6(address), rest.isEmpty || rest.hasPrefix(":") else { return false }
            port = rest.isEmpty ? nil : rest.dropFirst()
            host = ""
        } else if let colon = lower.firstIndex(of: ":") {
            host = lower[..<colon]
            port = lower[lower.index(after: colon)...]
        } else {
            host = lower[...]
            port = nil
        }
        if let port, port.count > 5 || !port.allSatisfy(\.isASCIIDigit) || (Int(port) ?? 0) > 65535 { return false }
        if lower.hasPrefix("[") { return true }
        if host == "localhost" || hosts.contains(String(host)) { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) && UInt8($0) != nil }
    }

    /// An IPv6 address as written between brackets (hex groups, `::`, an IPv4 tail); not empty.
    static func isIPv6(_ text: Substring) -> Bool {
        guard text.count >= 2, text.contains(":"), text.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        let groups = text.split(separator: ":", omittingEmptySubsequences: false)
        guard groups.count <= 8, text.ranges(of: "::").count <= 1 else { return false }
        return groups.allSatisfy { $0.count <= 4 || ($0.contains(".") && $0 == groups.last) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
