import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// A later request of a kept-alive connection whose head is over the decoder's limit: 431, then the
/// connection is closed (Hummingbird would answer any parser error with 400).
final class HeaderOverflowResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard case HTTPParserError.headerOverflow? = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let head = HTTPResponse(status: .init(code: 431), headerFields: [.connection: "close", .contentLength: "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        FirstRequestHeadGuard.lingeringClose(context)
    }
}
