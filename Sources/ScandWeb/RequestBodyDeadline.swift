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
    /// A request's head came and its end has not.
    private var reading = false
    /// Request heads passed on, and responses written whole (the application answers them in order): a
    /// response ends the request still being read only when it is the last one's.
    private var requests = 0
    private var responses = 0
    /// A response's head is written and its end is not.
    private var responding = false
    private var closing = false

    init(timeout: Duration) {
        self.timeout = TimeAmount(timeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head:
            requests += 1
            reading = true
            startClock(context)
        case .end:
            reading = false
            deadline?.cancel()
            deadline = nil
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
        // A pipelined request's body may still come while the one before it is answered.
        guard case .end = part, reading, responses == requests, !closing else {
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
        guard reading, !closing else { return }
        closing = true
        // An answer already begun cannot be followed by another.
        if !responding {
            let head = HTTPResponse(status: .requestTimeout, headerFields: [.connection: "close", .contentLength: "0"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        FirstRequestHeadGuard.lingeringClose(context)
    }
}
