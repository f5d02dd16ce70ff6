import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ScandCore
import ScandFiles
import ScandLogging

/// The Unix stream socket subscribers connect to, served with swift-nio. Bound by scand itself (mode 0660,
/// optional group, removed on shutdown) or handed over by systemd's socket activation.
public final class SocketServer: Sendable {
    public enum Listener: Sendable {
        case path(String, group: String)
        /// A listening socket passed by systemd (sd_listen_fds).
        case inherited(Int32)
    }

    public let hub: EventHub
    let listener: Listener
    var maxClients: Int { hub.maxClients }
    let maxRequestBytes: Int
    let requestTimeout: Duration
    let daemon: DaemonControls
    let admins: AdminGroup
    let log: Logger
    /// NIO's shared loops: nothing of the socket runs on the cooperative pool, and nothing to shut down.
    private let group = MultiThreadedEventLoopGroup.singleton
    /// The listening channel, and the socket file's identity when scand created it: on exit the file is
    /// removed only if it is still that one (a second daemon may have replaced it since).
    private let bound = NIOLockedValueBox<(channel: Channel?, file: FileIdentity?)>((nil, nil))
    /// The clients' channels, closed on stop: the shared event loops outlive the server.
    private let clients = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
    /// The lock on `<path>.lock` taken by `claim`, held until `stop`.
    private let claimed = NIOLockedValueBox<Int32?>(nil)

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
    public func claim() throws {
        guard case .path(let path, let groupName) = listener else { return }
        if !groupName.isEmpty && getgrnam(groupName) == nil { throw BindError(description: "socket group '\(groupName)' does not exist") }
        let lock = try SocketPathClaim.claim(path)
        claimed.withLockedValue { $0 = lock }
    }

    /// Starts listening (after `claim`). Errors name the path and the cause; a missing group leaves no socket
    /// file behind.
    public func start() async throws {
        let settings = ClientHandler.Settings(
            hub: hub, maxRequestBytes: maxRequestBytes, requestTimeout: requestTimeout, daemon: daemon,
            admins: admins, log: log, refusals: RateLimitedLog(log: log), idleClosed: RateLimitedLog(log: log),
            drops: RateLimitedLog(log: log))
        let clients = self.clients
        let bootstrap = ServerBootstrap(group: group)
            // A subscriber with more than 256 KiB waiting is unwritable: it is not keeping up (Subscriber).
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 256 * 1024))
            .childChannelInitializer { channel in
                let id = ObjectIdentifier(channel)
                clients.withLockedValue { $0[id] = channel }
                channel.closeFuture.whenComplete { _ in clients.withLockedValue { $0[id] = nil } }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(RequestLineDecoder(maxLength: settings.maxRequestBytes)),
                        ClientHandler(settings: settings)
                    ])
                }
            }
        switch listener {
        case .inherited(let fd):
            let channel = try await bootstrap.withBoundSocket(fd).get()
            widenBacklog(fd)
            bound.withLockedValue { $0.channel = channel }
            log("serving clients on the socket systemd passed (scand.socket)", .info)
        case .path(let path, let groupName):
            var gid: gid_t?
            if !groupName.isEmpty {
                guard let g = getgrnam(groupName) else { throw BindError(description: "socket group '\(groupName)' does not exist") }
                gid = g.pointee.gr_gid
            }
            let dir = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            // Bound here rather than by NIO, which would remove whatever socket is at the path when it closes:
            // the file is removed on exit only if it is still the one made here. Bound under a name of its own
            // and renamed into place once listening, so a client that sees the path can connect (when the path is
            // too long for that name, bound in place). The name is this process's own: no other daemon's
            // staging can remove it.
            let fresh = path + ".new.\(getpid())"
            let staging = fresh.utf8.count < 108 ? fresh : path
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw BindError(description: "cannot listen on \(path): \(String(cString: strerror(errno)))") }
            if staging != path { unlink(staging) }  // a leftover of a process of this pid that died between bind and rename
            let e = UnixSocketAddress.bind(fd, to: staging)
            guard e == 0 else {
                close(fd)
                // EADDRINUSE: another daemon bound the path since `claim`.
                throw BindError(description: "cannot listen on \(path): \(String(cString: strerror(e)).lowercased())")
            }
            // Clients of the group may connect; nobody else. Set before listening, so nobody connects earlier.
            chmod(staging, 0o660)
            let given = gid.map { chown(staging, UInt32.max, $0) == 0 } ?? true
            let reason = String(cString: strerror(errno))
            guard given else {
                close(fd)
                unlink(staging)
                throw BindError(description: "cannot give \(path) to group '\(groupName)': \(reason)")
            }
            do {
                let channel = try await bootstrap.withBoundSocket(fd).get()
                widenBacklog(fd)
                if staging != path, rename(staging, path) != 0 {
                    let why = String(cString: strerror(errno))
                    try? await channel.close()
                    unlink(staging)
                    throw BindError(description: "cannot listen on \(path): \(why)")
                }
                let file = FileIdentity(path: path)  // after chmod, chown and rename, which change it
                bound.withLockedValue { $0 = (channel, file) }
                // Where clients connect: a daemon not run by root picks its own path (XDG_RUNTIME_DIR or /tmp).
                log("serving clients on \(path) (mode 0660" + (groupName.isEmpty ? ")" : ", group \(groupName))"), .info)
            } catch let error as BindError {
                throw error
            } catch {
                unlink(staging)
                throw BindError(description: "cannot listen on \(path): \(error)")
            }
        }
    }

    /// A burst of connections up to max_clients waits in the kernel's queue rather than failing with EAGAIN
    /// (the kernel caps it at net.core.somaxconn). NIO listens on a socket it is handed with a backlog of 128
    /// and ignores its backlog option there; listen(2) again on a listening socket only changes the backlog.
    private func widenBacklog(_ fd: Int32) {
        listen(fd, Int32(clamping: max(maxClients, Int(SOMAXCONN))))
    }

    /// Stops listening, closes every client, removes the socket file scand created if it is still scand's.
    public func stop() async {
        let (channel, file) = bound.withLockedValue { b in
            defer { b = (nil, nil) }
            return b
        }
        try? await channel?.close()
        for client in clients.withLockedValue({ Array($0.values) }) { try? await client.close() }
        if case .path(let path, _) = listener, let file, FileIdentity(path: path) == file { unlink(path) }
        if let lock = claimed.withLockedValue({ l in
            defer { l = nil }; return l
        }) {
            SocketPathClaim.release(lock)
        }
    }
}
