import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP connection that sends exactly the bytes a test writes (a browser or curl would fix them up) and
/// keeps what comes back, and whether the server closed it.
final class RawHTTPConnection: Sendable {
    let channel: any Channel
    private let received: Received

    final class Received: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let state = NIOLockedValueBox((text: "", closed: false))

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let text = String(buffer: unwrapInboundIn(data))
            state.withLockedValue { $0.text += text }
        }

        func channelInactive(context: ChannelHandlerContext) {
            state.withLockedValue { $0.closed = true }
        }

        // The server's end of its side, for a connection that keeps its own side open.
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event as? ChannelEvent == .inputClosed { state.withLockedValue { $0.closed = true } }
            context.fireUserInboundEventTriggered(event)
        }

        // A reset after the server's last answer is a close too; what came before it is kept.
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    private init(channel: any Channel, received: Received) {
        self.channel = channel
        self.received = received
    }

    /// - Parameter keepingItsSide: once the server has closed its side, keep ours open (as a hostile client
    ///   would) rather than close: only the server's full close then ends the connection.
    /// - Parameter head: written on the event loop the moment the connection is made (a prompt client: no hop
    ///   through a busy cooperative pool between connecting and sending, which a short header timeout would see
    ///   as a silent client).
    static func open(port: Int, keepingItsSide: Bool = false, sending head: String? = nil) async throws -> RawHTTPConnection {
        let received = Received()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.allowRemoteHalfClosure, value: keepingItsSide)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(received) }
            }
            .connect(host: "127.0.0.1", port: port)
            .flatMap { channel in
                guard let head else { return channel.eventLoop.makeSucceededFuture(channel) }
                return channel.writeAndFlush(ByteBuffer(string: head)).map { channel }
            }
            .get()
        return RawHTTPConnection(channel: channel, received: received)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// What the server sent so far.
    var text: String { received.state.withLockedValue { $0.text } }
    /// The server closed the connection, or its side of it (or reset it).
    var closed: Bool { received.state.withLockedValue { $0.closed } }

    func close() async {
        try? await channel.close()
    }

    /// Closed with a reset (SO_LINGER 0), as a crashed client's: the server reads the error at once.
    func reset() async {
        try? await (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        try? await channel.close()
    }
}
