import NIOCore

/// Closes an event stream's connection when its client closes its side. Hummingbird keeps a half-closed
/// connection open (a client may end its side and still wait for an answer), but a stream's client never
/// sends again: one whose side closed has gone (a tab closed, a page left), and would otherwise hold its
/// place until the next keepalive's write failed.
final class EventStreamHangUp: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event as? ChannelEvent == .inputClosed { context.close(promise: nil) }
        context.fireUserInboundEventTriggered(event)
    }
}
