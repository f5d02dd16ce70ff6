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

    /// Request heads passed on, and responses written whole (the application answers them in order).
    private var requests = 0
    private var responses = 0
    /// The last request's end has not come yet; a response's head is written and not its end.
    private var reading = false
    private var responding = false
    /// The answer to write once `responses` reaches `after`.
    private var owed: (status: HTTPResponse.Status, after: Int)?
    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard owed == nil, !closing else { return }
        switch unwrapInboundIn(data) {
        case .head:
            requests += 1
            reading = true
        case .end: reading = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch part {
        case .head(let head) where head.status.kind != .informational: responding = true
        case .end:
            responding = false
            responses += 1
        default: break
        }
        context.write(data, promise: promise)
        if case .end = part, let owed, responses >= owed.after { answer(context, owed.status) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let error as HTTPParserError:
            guard owed == nil, !closing else { return }
            let status: HTTPResponse.Status = error == .headerOverflow ? .init(code: 431) : .badRequest
            // A body that breaks: its request's answer may have begun, then nothing sensible can follow it.
            if reading, responding ? responses == requests - 1 : responses == requests {
                closing = true
                context.close(promise: nil)
                return
            }
            let after = reading ? requests - 1 : requests
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
        let head = HTTPResponse(status: status, headerFields: [.connection: "close", .contentLength: "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        FirstRequestHeadGuard.lingeringClose(context)
    }
}
