import HTTPTypes
import Hummingbird
import ScandCore

/// Refuses requests whose Host names anything but an IP address, `localhost` or a name in `[web] hosts`
/// (against DNS rebinding), a malformed Host or two of them, and browser pages (Origin) `OriginPolicy`
/// refuses: browsers let any page, extension or local file send requests anywhere, and only the Origin
/// tells them apart. Allowed other origins get CORS answers and preflights here.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let hosts: Set<String>
    var origins = OriginPolicy()
    var metrics: WebMetrics?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authority = request.head.authority ?? ""
        // HTTPTypes keeps the first Host as the authority and any further one among the fields.
        if let host = HTTPField.Name("Host"), request.headers[host] != nil {
            metrics?.refusedHost.increment()
            return WebApp.json(.badRequest, message: "more than one Host header")
        }
        guard Self.allowed(authority: authority, hosts: hosts) else {
            metrics?.refusedHost.increment()
            return WebApp.json(.forbidden, message: "host '\(authority.prefix(64))' is not served here; add it to [web] hosts")
        }
        let path = request.uri.path
        switch origins.verdict(method: request.method, path: path, origin: request.headers[.origin], authority: authority) {
        case .refused(let reason):
            metrics?.refusedOrigin.increment()
            return WebApp.json(.forbidden, message: reason)
        case .sameOrigin:
            var response = try await next(request, context)
            if OriginPolicy.isOpen(method: request.method, path: path) { response.headers.append(OriginPolicy.vary) }
            return response
        case .crossOrigin(let origin):
            if request.method == .options {
                // A preflight carries no credentials: answered here, before the token is asked for.
                let asked = request.headers[.accessControlRequestMethod] ?? ""
                guard let headers = OriginPolicy.preflightHeaders(origin: origin, requestedMethod: asked) else {
                    metrics?.refusedOrigin.increment()
                    return WebApp.json(.forbidden, message: "a page of \(origin) may only read (GET), not \(asked.prefix(16))")
                }
                return Response(status: .noContent, headers: HTTPFields(headers))
            }
            var response = try await next(request, context)
            response.headers.append(contentsOf: OriginPolicy.responseHeaders(origin: origin))
            return response
        }
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
