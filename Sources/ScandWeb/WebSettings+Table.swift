import ScandCore

/// `[web]`, registered with the settings table: `scand web`'s (its unit reads /etc/scand/web.toml).
extension WebSettings: SettingsSection {
    public static let name = "web"

    public static let settings: [Setting] = [
        Setting(
            in: Self.self, key: "listen", flag: "listen", kind: .text, valueName: "HOST:PORT",
            help: "Where HTTP is served, HOST:PORT ([::1]:8088 for IPv6), port 0…65535.",
            words:
                "Where HTTP is served, HOST:PORT (\"[::1]:8088\" for IPv6), port 0...65535 (0: any free one). Anything but loopback also needs the unit's IPAddressAllow= (`systemctl edit scand-web`), and should have a token: without one there is no authentication beyond reaching the port.",
            read: { SettingValue.text($0.listen.description) },
            write: { s, v throws(Setting.Problem) in
                let text = try v.text()
                do throws(ListenAddress.Problem) { s.listen = try ListenAddress(parsing: text) } catch {
                    // "listen address must be …" as the table words it: "listen must be …".
                    throw Setting.Problem(
                        error.description.firstRange(of: "must ").map { String(error.description[$0.lowerBound...]) } ?? error.description)
                }
            }),
        .text(
            in: Self.self, "socket", flag: "socket", value: "PATH", help: "The daemon's socket; empty: [socket] path, else as scand watch finds it.",
            words:
                "The daemon's socket: an absolute path under 108 bytes; \"\" = a [socket] path in this file, else /run/scand/scand.sock (where the packaged daemon listens).",
            { $0.socket }, { s, v throws(Setting.Problem) in s.socket = try Setting.socketPath(.text(v)) }),
        Setting(
            in: Self.self, key: "hosts", flag: nil, kind: .texts, valueName: "LIST",
            help: "Host names the page may be reached by besides IP addresses and localhost.",
            words:
                "Host names the page may be reached by besides IP addresses and localhost (others are refused, which stops DNS rebinding), e.g. [\"kiosk-7.local\"].",
            read: { SettingValue.texts($0.hosts) },
            write: { s, v throws(Setting.Problem) in
                let hosts = try v.texts()
                if let bad = hosts.first(where: isNotHostName) {
                    throw Setting.Problem("must be host names (no spaces, '/' or ':'), got '\(bad.prefix(64))'")
                }
                s.hosts = hosts.map { $0.lowercased() }
            }),
        Setting(
            in: Self.self, key: "allowed_origins", flag: nil, kind: .texts, valueName: "LIST",
            help: "Origins of other pages (http://localhost:3000) that may use /events and the read-only /api routes.",
            words:
                "Origins of other pages that may use the event stream (/events) and the read-only /api routes, exactly as a browser sends them: scheme://host[:port], e.g. [\"http://localhost:3000\"] (a default port is dropped); they get CORS answers. Pages of any other origin stay refused (403); setting the rect of interest stays for scand web's own page.",
            read: { SettingValue.texts($0.allowedOrigins) },
            write: { s, v throws(Setting.Problem) in
                var origins: [String] = []
                for item in try v.texts() {
                    guard let origin = WebSettings.origin(item) else {
                        throw Setting.Problem(
                            "must be origins as a browser sends them, scheme://host[:port] (http://localhost:3000), got '\(item.prefix(64))'")
                    }
                    if !origins.contains(origin) { origins.append(origin) }
                }
                s.allowedOrigins = origins
            }),
        // Read back as set: the settings table is no log (nothing logs a [web] value).
        .text(
            in: Self.self, "token", value: "TOKEN", help: "The access token every request must carry; empty: none.",
            words:
                "The access token every request must carry, 16...256 letters, digits, '-', '_', '.' or '~' (make one with `openssl rand -hex 32`); \"\" = none. Sent as \"Authorization: Bearer TOKEN\", as the cookie scand_token (set by opening /?token=TOKEN once), or, where a browser cannot send a header (EventSource), as ?token=TOKEN on a GET. A missing or wrong token gets 401. Compared in constant time and never logged; keep this file unreadable to others (chmod 0640) when it holds one.",
            { $0.token },
            { s, token throws(Setting.Problem) in
                guard token.isEmpty || WebSettings.isValidToken(token) else {
                    throw Setting.Problem(
                        "must be empty or \(WebSettings.tokenLength.lowerBound)…\(WebSettings.tokenLength.upperBound) letters, digits, '-', '_', '.' or '~' "
                            + "(openssl rand -hex 32 makes one), got \(token.count) characters")
                }
                s.token = token
            })
    ]

    private static func isNotHostName(_ host: String) -> Bool {
        host.isEmpty || host.unicodeScalars.contains { $0 == " " || $0 == "/" || $0 == ":" }
    }
}
