import Foundation
import Logging
import NIOCore
import NIOPosix
import ScandCore
import ScandFiles
import ScandLogging
import ServiceLifecycle

/// The Unix stream socket subscribers connect to, served with swift-nio's async channels: each connection a
/// task of its own (`ClientConnection`) in one task group. Bound by scand itself (mode 0660, optional group,
/// removed on shutdown) or handed over by systemd's socket activation.
public struct SocketServer: Sendable {
    public enum Listener: Sendable {
        case path(String, group: String)
        /// A listening socket passed by systemd (sd_listen_fds).
        case inherited(Int32)
    }

    /// The lock on `<path>.lock` that `claim` took (none for an inherited socket), held until the server stops.
    public struct Claim: Sendable {
        let lock: Int32?

        func release() { if let lock { SocketPathClaim.release(lock) } }
    }

    public let hub: EventHub
    let listener: Listener
    var maxClients: Int { hub.maxClients }
    let maxRequestBytes: Int
    let requestTimeout: Duration
    let daemon: DaemonControls
    let admins: AdminGroup
    let log: Logger

    public init(
        listener: Listener, hub: EventHub, maxRequestBytes: Int, requestTimeout: Duration = .seconds(5),
        daemon: DaemonControls, adminGroup: String = "", log: Logger
    ) {
        self.listener = listener
        self.hub = hub
        self.maxRequestBytes = maxRequestBytes
        self.requestTimeout = requestTimeout
        self.daemon = daemon
        self.admins = AdminGroup(name: adminGroup)
        self.log = log
    }

    public struct BindError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Checks, before anything starts, that the socket can be served: its group exists, and no other server
    /// answers on its path (a stale socket file, nobody answering, is removed). Errors name the path and why.
    public func claim() throws -> Claim {
        guard case .path(let path, let groupName) = listener else { return Claim(lock: nil) }
        if !groupName.isEmpty && getgrnam(groupName) == nil { throw BindError(description: "socket group '\(groupName)' does not exist") }
        return Claim(lock: try SocketPathClaim.claim(path))
    }

    /// Listens (after `claim`) and serves clients until graceful shutdown or cancellation; then stops
    /// listening, closes every client, removes the socket file scand created if it is still scand's, and
    /// releases the claim. Errors to listen name the path and the cause; a missing group leaves no socket file.
    public func run(_ claim: Claim) async throws {
        defer { claim.release() }
        let (listening, file) = try await bind()
        defer { if case .path(let path, _) = listener, let file, FileIdentity(path: path) == file { unlink(path) } }
        try await withGracefulShutdownHandler {
            try await serve(listening)
        } onGracefulShutdown: {
            listening.channel.close(promise: nil)
        }
    }

    /// Accepts each client as a task of its own; once the listener closes (or the task is cancelled), the
    /// clients are closed too.
    private func serve(_ listening: Listening) async throws {
        let connection = ClientConnection(
            settings: .init(
                hub: hub, maxRequestBytes: maxRequestBytes, requestTimeout: requestTimeout, daemon: daemon, admins: admins, log: log,
                refusals: RateLimitedLog(log: log), idleClosed: RateLimitedLog(log: log), drops: RateLimitedLog(log: log)))
        try await listening.executeThenClose { accepted in
            try await withThrowingDiscardingTaskGroup { group in
                defer { group.cancelAll() }
                for try await client in accepted { group.addTask { await connection.run(client) } }
            }
        }
    }
}
