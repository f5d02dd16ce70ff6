import Foundation
import NIOCore
import NIOPosix
import ScandCore
import ServiceLifecycle

/// The Unix stream socket subscribers connect to, served with swift-nio. Bound by scand itself (mode 0660,
/// optional group, removed on shutdown) or handed over by systemd's socket activation.
public final class SocketServer: @unchecked Sendable {
    public enum Listener: Sendable {
        case path(String, group: String)
        /// A listening socket passed by systemd (sd_listen_fds).
        case inherited(Int32)
    }

    public let hub: EventHub
    let listener: Listener
    let maxRequestBytes: Int
    let status: @Sendable () -> String
    let log: @Sendable (String, LogLevel) -> Void
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var channel: Channel?

    public init(listener: Listener, hub: EventHub, maxRequestBytes: Int, status: @escaping @Sendable () -> String,
                log: @escaping @Sendable (String, LogLevel) -> Void) {
        self.listener = listener
        self.hub = hub
        self.maxRequestBytes = maxRequestBytes
        self.status = status
        self.log = log
    }

    public struct BindError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts listening. Errors name the path and the cause.
    public func start() throws {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 32)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 256 * 1024))
            .childChannelInitializer { [hub, maxRequestBytes, status, log] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ClientHandler(hub: hub, maxRequestBytes: maxRequestBytes, status: status, log: log))
                }
            }
        switch listener {
        case .inherited(let fd):
            channel = try bootstrap.withBoundSocket(fd).wait()
        case .path(let path, let groupName):
            let dir = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            do {
                channel = try bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).wait()
            } catch {
                throw BindError(description: "cannot listen on \(path): \(error)")
            }
            // Clients of the group may connect; nobody else.
            chmod(path, 0o660)
            if !groupName.isEmpty {
                guard let g = getgrnam(groupName) else { throw BindError(description: "socket group '\(groupName)' does not exist") }
                if chown(path, UInt32.max, g.pointee.gr_gid) != 0 {
                    throw BindError(description: "cannot give \(path) to group '\(groupName)': \(String(cString: strerror(errno)))")
                }
            }
        }
    }

    /// Stops listening, closes every client, removes the socket file scand created.
    public func stop() {
        try? channel?.close().wait()
        if case .path(let path, _) = listener { unlink(path) }
        try? group.syncShutdownGracefully()
    }
}
