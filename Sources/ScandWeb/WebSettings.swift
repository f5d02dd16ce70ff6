import ScandCore

/// `scand web`'s settings: the `[web]` table of its own file (`/etc/scand/web.toml`; the daemon's file
/// refuses tables it does not know, so the two do not share one), then the command line over it.
public struct WebSettings: Sendable, Equatable {
    /// Where HTTP is served.
    public var listen: ListenAddress = .default
    /// The daemon's socket.
    public var socket: String
    /// Host names the page may be reached by besides IP addresses and `localhost` (a request naming any
    /// other is refused, so a web page elsewhere cannot reach it by DNS rebinding).
    public var hosts: [String] = []

    public init(socket: String) {
        self.socket = socket
    }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    static let keys = ["listen", "socket", "hosts"]

    /// The file's `[web]` table over `self`; a wrong file is refused with its line and the reason.
    public func reading(file text: String, path: String) throws(Problem) -> WebSettings {
        func problem(_ line: Int, _ message: String) -> Problem { Problem(description: "\(path): line \(line): \(message)") }
        let doc: TOML.Document
        do { doc = try TOML.parse(text) } catch { throw problem(error.line, error.message) }
        var settings = self
        for (table, entries) in doc.tables where table != "web" {
            if let first = entries.values.map(\.line).min(), table.isEmpty {
                throw problem(first, "settings go in the [web] table")
            } else if !table.isEmpty {
                throw problem(doc.tableLines[table] ?? 0, "unknown table [\(table)] (known: web)")
            }
        }
        for (key, entry) in (doc.tables["web"] ?? [:]).sorted(by: { $0.value.line < $1.value.line }) {
            switch (key, entry.value) {
            case ("listen", .string(let text)):
                do { settings.listen = try ListenAddress(parsing: text) } catch { throw problem(entry.line, error.description) }
            case ("socket", .string(let path)):
                guard path.hasPrefix("/") else { throw problem(entry.line, "socket must be an absolute path, got '\(path.prefix(64))'") }
                settings.socket = path
            case ("hosts", .array(let values)):
                var hosts: [String] = []
                for value in values {
                    guard case .string(let host) = value, !host.isEmpty else { throw problem(entry.line, "hosts must be an array of host names") }
                    hosts.append(host.lowercased())
                }
                settings.hosts = hosts
            case ("listen", let value), ("socket", let value):
                throw problem(entry.line, "\(key) must be a string, got \(value.typeName)")
            case ("hosts", let value):
                throw problem(entry.line, "hosts must be an array of host names, got \(value.typeName)")
            default:
                throw problem(entry.line, "unknown key '\(key)' in [web] (known: \(Self.keys.joined(separator: ", ")))")
            }
        }
        return settings
    }
}
