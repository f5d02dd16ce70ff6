/// `scand web`'s settings: the `[web]` table of the configuration (scand-web.service reads
/// /etc/scand/web.toml), read through `Setting.all` like every other table, then the command line over it.
public struct WebSettings: Sendable, Equatable {
    /// Where HTTP is served.
    public var listen: ListenAddress = .default
    /// The daemon's socket; "" in a file: the file's `[socket] path`, else as `scand watch` finds it.
    public var socket: String
    /// Host names the page may be reached by besides IP addresses and `localhost` (a request naming any
    /// other is refused, so a web page elsewhere cannot reach it by DNS rebinding).
    public var hosts: [String] = []

    public init(socket: String = "") {
        self.socket = socket
    }
}
