import Foundation
import Synchronization
import ScandTestSupport
@testable import ScandSocket

/// A socket server run in this process, in a task of its own, until `stop`.
final class LocalServer: Sendable {
    let path: String
    let hub: EventHub
    let server: SocketServer
    private let running = Mutex<Task<Void, any Error>?>(nil)

    init(path: String, server: SocketServer) {
        self.path = path
        self.hub = server.hub
        self.server = server
    }

    /// Claims the path and serves it; returns once clients can connect.
    func start() async throws {
        let claim = try server.claim()
        let server = self.server
        running.withLock { $0 = Task { try await server.run(claim) } }
        let path = self.path
        guard await Eventually.check({ FileManager.default.fileExists(atPath: path) }) else {
            throw SocketServer.BindError(description: "\(path) was not served")
        }
    }

    /// Stops listening, closes every client, removes the socket file; returns once all of that is done.
    func stop() async {
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
