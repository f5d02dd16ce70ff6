import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Requests to the daemon (`?STATUS;`, `?SNAPSHOT;`, `?ROI=…;`, `?METRICS;`) over a few kept
/// connections, each carrying one request at a time. Non-blocking (NIO): no thread waits on the socket.
public final class DaemonClient: Sendable {
    public let socketPath: String
    private let group: any EventLoopGroup
    private let timeout: TimeAmount
    private let idle = NIOLockedValueBox<[DaemonConnection]>([])
    /// Connections kept open between requests: each one the daemon logs as a client, so a page polling
    /// 5 times a second must not open one per request.
    static let keptConnections = 4

    public init(socketPath: String, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, timeout: Duration = .seconds(5)) {
        self.socketPath = socketPath
        self.group = group
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
    }

    /// The answer line to `request` (without its newline and `;`-terminated, as `?STATUS;`).
    public func request(_ request: String) async throws(DaemonError) -> DaemonAnswer {
        // A kept connection may have been closed by a restarted daemon: then once more on a new one.
        while true {
            let kept = idle.withLockedValue { $0.popLast() }
            let connection: DaemonConnection
            if let kept {
                connection = kept
            } else {
                connection = try await DaemonConnection.open(path: socketPath, group: group, timeout: timeout)
            }
            do {
                let line = try await connection.request(request)
                let reused = idle.withLockedValue { list in
                    guard list.count < Self.keptConnections, connection.isActive else { return false }
                    list.append(connection)
                    return true
                }
                if !reused { connection.close() }
                return DaemonAnswer(line: line)
            } catch {
                connection.close()
                if kept != nil && error == .closed { continue }
                throw error
            }
        }
    }

    /// Closes the kept connections.
    public func close() {
        for connection in idle.withLockedValue({ list in
            defer { list = [] }; return list
        }) { connection.close() }
    }
}
