import ServiceLifecycle

/// The socket as a service: served until shutdown, then closed and its file removed.
package struct SocketService: Service {
    let server: SocketServer
    let claim: SocketServer.Claim

    package init(server: SocketServer, claim: SocketServer.Claim) {
        self.server = server
        self.claim = claim
    }

    package func run() async throws { try await server.run(claim) }
}
