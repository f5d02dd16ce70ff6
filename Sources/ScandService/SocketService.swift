import ServiceLifecycle

/// The socket as a service: served until shutdown, then closed and its file removed.
struct SocketService: Service {
    let server: SocketServer

    func run() async throws {
        try await server.start()
        try? await gracefulShutdown()
        await server.stop()
    }
}
