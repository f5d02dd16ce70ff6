import NIOCore
import NIOHTTP1

/// Right behind the HTTP request decoder until the connection's first request head (see
/// `FirstRequestHeadGuard`). A first head that does not parse is answered 400 (431 over the limit) through
/// the guard and the connection closed: Hummingbird's pipeline (built without NIO's HTTP error handler)
/// would hold it for ever.
final class FirstRequestDecodeWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let headGuard: FirstRequestHeadGuard

    init(headGuard: FirstRequestHeadGuard) {
        self.headGuard = headGuard
    }

    /// Puts a watch behind `channel`'s request decoder, for the guard in front of it.
    static func add(to channel: any Channel, for headGuard: FirstRequestHeadGuard) throws {
        let pipeline = channel.pipeline.syncOperations
        let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
        try pipeline.addHandler(FirstRequestDecodeWatch(headGuard: headGuard), position: .after(decoder))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        // After passing it on: a removed handler's context passes nothing on.
        if case .head = unwrapInboundIn(data) {
            let pipeline = context.pipeline.syncOperations
            pipeline.removeHandler(headGuard, promise: nil)
            pipeline.removeHandler(context: context, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let error as HTTPParserError:
            guard let guardContext = try? context.pipeline.syncOperations.context(handler: headGuard) else {
                context.close(promise: nil)
                return
            }
            headGuard.refuse(guardContext, error == .headerOverflow ? "431 Request Header Fields Too Large" : "400 Bad Request")
        // What the client sent after the bad head (the guard reads and drops the rest).
        case ByteToMessageDecoderError.dataReceivedInErrorState: break
        default: context.fireErrorCaught(error)
        }
    }
}
