import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// A later request of a kept-alive connection (or a request's body) that the HTTP decoder cannot parse:
/// answered 400 (431 for a head over the decoder's limit) once the responses to the requests before it are
/// written, then the connection closed. Hummingbird answers a parser error too, but then waits for the
/// client to close, up to the idle timeout, with the connection's place held.
final class ParseErrorResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var exchanges = HTTPExchanges()
    /// The answer to write once `responses` reaches `after`.
    private var owed: (status: HTTPResponse.Status, after: Int)?
    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard owed == nil, !closing else { return }
        exchanges.read(unwrapInboundIn(data))
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        exchanges.wrote(part)
        context.write(data, promise: promise)
        if case .end = part, let owed, exchanges.responses >= owed.after { answer(context, owed.status) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let error as HTTPParserError:
            guard owed == nil, !closing else { return }
            let status: HTTPResponse.Status = error == .headerOverflow ? .init(code: 431) : .badRequest
            // A body that breaks: its request's answer may have begun, then nothing sensible can follow it.
            let (requests, responses) = (exchanges.requests, exchanges.responses)
            if exchanges.reading, exchanges.responding ? responses == requests - 1 : responses == requests {
                closing = true
                context.close(promise: nil)
                return
            }
            let after = exchanges.reading ? requests - 1 : requests
            if responses >= after { answer(context, status) } else { owed = (status, after) }
        // What the client sent after the bad part (the decoder stops at its first error).
        case ByteToMessageDecoderError.dataReceivedInErrorState: break
        default: context.fireErrorCaught(error)
        }
    }

    private func answer(_ context: ChannelHandlerContext, _ status: HTTPResponse.Status) {
        owed = nil
        guard !closing else { return }
        closing = true
        let answer = HTTPExchanges.closingAnswer(status)
        context.write(wrapOutboundOut(answer.head), promise: nil)
        context.writeAndFlush(wrapOutboundOut(answer.end), promise: nil)
        FirstRequestHeadGuard.lingeringClose(context)
    }
}
