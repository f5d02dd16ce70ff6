import ScandCore

/// `scand web`'s settings: the `[web]` table of the configuration (scand-web.service reads
/// /etc/scand/web.toml; its rows in WebSettings+Table.swift, registered with the settings table as every
/// feature's are), then the command line over it.
public struct WebSettings: Sendable, Equatable {
    /// Where HTTP is served.
    public var listen: ListenAddress = .default
    /// The daemon's socket; "" in a file: the file's `[socket] path`, else as `scand watch` finds it.
    public var socket: String
    /// Host names the page may be reached by besides IP addresses and `localhost` (a request naming any
    /// other is refused, so a web page elsewhere cannot reach it by DNS rebinding).
    public var hosts: [String] = []
    /// Origins of other pages (`http://localhost:3000`) that may use the event stream and the
    /// read-only API, lowercased and without a default port, as browsers send them.
    public var allowedOrigins: [String] = []
    /// The access token every request must carry; "" for none.
    public var token: String = ""

    public init() { socket = "" }

    public init(socket: String) {
        self.socket = socket
    }

    /// A token's length: long enough not to be guessed, short enough for a header or a URL.
    public static let tokenLength = 16...256

    /// Letters, digits and `-._~`: what travels in a header, a cookie and a query unescaped.
    public static func isValidToken(_ token: String) -> Bool {
        tokenLength.contains(token.utf8.count)
            && token.utf8.allSatisfy { c in
                (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x2D || c == 0x2E || c == 0x5F
                    || c == 0x7E
            }
    }

    /// `text` as the `Origin` a browser sends for it: `http` or `https`, a host, an optional port, nothing
    /// after; lowercased, a default port dropped (`http://Kiosk:80` is `http://kiosk`). Nil for anything else
    /// (`*`, `null`, a path, a user): origins are compared exactly, never as patterns.
    public static func origin(_ text: String) -> String? {
        let lower = text.lowercased()
        let scheme: String
        if lower.hasPrefix("http://") { scheme = "http" } else if lower.hasPrefix("https://") { scheme = "https" } else { return nil }
        let authority = lower.dropFirst(scheme.count + 3)
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ \\".contains($0) }) else { return nil }
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            port = rest.isEmpty ? nil : rest.dropFirst()
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard host.count > (host.hasPrefix("[") ? 2 : 0), !host.contains(":") || host.hasPrefix("[") else { return nil }
        if let port {
            guard (1...5).contains(port.count), port.allSatisfy({ ("0"..."9").contains($0) }), let n = Int(port), (1...65535).contains(n) else {
                return nil
            }
            if (scheme == "http" && n == 80) || (scheme == "https" && n == 443) { return "\(scheme)://\(host)" }
            return "\(scheme)://\(host):\(n)"
        }
        return "\(scheme)://\(host)"
    }
}
