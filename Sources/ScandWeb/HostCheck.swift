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
        if let origin = request.headers[.origin], origin != "http://\(authority)", origin != "https://\(authority)" {
            return WebApp.json(.forbidden, message: "requests from another site's page are refused (Origin \(origin.prefix(64)))")
        }
        return try await next(request, context)
    }

    static func allowed(authority: String, hosts: Set<String>) -> Bool {
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
