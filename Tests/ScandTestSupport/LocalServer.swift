import Foundation
import ScandSocket
import Synchronization

/// The daemon's socket server run in this process, in a task of its own, until `stop`: for the socket's
/// tests and the client's.
public final class LocalServer: Sendable {
    public let path: String
    public let hub: EventHub
    public let server: SocketServer
    private let running = Mutex<Task<Void, any Error>?>(nil)

    public struct NotServed: Error, CustomStringConvertible {
        public var description: String
    }

    public init(path: String, server: SocketServer) {
        self.path = path
        self.hub = server.hub
        self.server = server
    }

    /// Claims the path and serves it; returns once clients can connect.
    public func start() async throws {
        let claim = try server.claim()
        let server = self.server
        running.withLock { $0 = Task { try await server.run(claim) } }
        let path = self.path
        guard await Eventually.check({ FileManager.default.fileExists(atPath: path) }) else {
            throw NotServed(description: "\(path) was not served")
        }
    }

    /// Stops listening, closes every client, removes the socket file; returns once all of that is done.
    public func stop() async {
        guard
            let task = running.withLock({ t in
                defer { t = nil }
                return t
            })
        else { return }
        task.cancel()
        _ = try? await task.value
    }
}
