/// What one client of `scand web` may hold: a connection that says nothing, a kept-alive one, the size of a
/// request's head, and how many connections there are at once (event streams are bounded by
/// `EventStreamLimits`). Without them 1,100 idle connections took every file descriptor.
public struct WebServerLimits: Sendable {
    /// A new connection's first request line and headers must have arrived within this (answered 408).
    public var headerTimeout: Duration = .seconds(10)
    /// A request's body must have ended within this of its head (answered 408 and closed): the idle timeout
    /// counts from the last byte, and a body trickled a byte at a time would hold a place for ever.
    public var bodyTimeout: Duration = .seconds(10)
    /// A kept-alive connection with no request for this long is closed; a later request's head must come
    /// within it too.
    public var idleTimeout: Duration = .seconds(30)
    /// The request line and headers at most (answered 431): browsers send a few KiB.
    public var maxHeaderBytes = 16 * 1024
    /// Connections served at once; one more is answered 503 and closed. Well below scand-web.service's
    /// `LimitNOFILE=1024`, with room for the daemon's connections and the journal streams.
    public var maxConnections = 256

    public init() {}
}
