import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// A request's body has a deadline of its own: its end must come within `timeout` of its head (else 408 and
/// the connection closed), and a request answered before its body ended (401 without the token, 403, 400)
/// has its connection closed once the answer is out, the rest of the body unread. Without it a head
/// followed by a body byte every 25 s held a place for as long as the client liked (the idle timeout counts
/// from the last byte), and 256 such connections locked every user out with 503.
final class RequestBodyDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// A response ends the request still being read only when it is the last one's.
    private var exchanges = HTTPExchanges()
    private var closing = false

    init(timeout: Duration) {
        self.timeout = TimeAmount(timeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let part = unwrapInboundIn(data)
        exchanges.read(part)
        switch part {
        case .head: startClock(context)
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        exchanges.wrote(part)
        // A pipelined request's body may still come while the one before it is answered.
        guard case .end = part, exchanges.reading, exchanges.responses == exchanges.requests, !closing else {
            context.write(data, promise: promise)
            return
        }
        // Answered before the body ended: nothing more is wanted from this connection.
        closing = true
        deadline?.cancel()
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.cascade(to: promise)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in FirstRequestHeadGuard.lingeringClose(loopBound.value) }
        context.write(data, promise: written)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func startClock(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.expired(context)
        }
    }

    private func expired(_ context: ChannelHandlerContext) {
        guard exchanges.reading, !closing else { return }
        closing = true
        // An answer already begun cannot be followed by another.
        if !exchanges.responding {
            let answer = HTTPExchanges.closingAnswer(.requestTimeout)
            context.write(wrapOutboundOut(answer.head), promise: nil)
            context.writeAndFlush(wrapOutboundOut(answer.end), promise: nil)
        }
        FirstRequestHeadGuard.lingeringClose(context)
    }
}
