import ServiceLifecycle

/// The socket as a service: served until shutdown, then closed and its file removed.
package struct SocketService: Service {
    let server: SocketServer

    package init(server: SocketServer) { self.server = server }

    package func run() async throws {
        try await server.start()
        try? await gracefulShutdown()
        await server.stop()
    }
}
