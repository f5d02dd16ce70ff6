import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of `scand web`: Hummingbird's, the WebSocket upgrade's, and the connection, so that
/// an /events client that does not keep up can be disconnected even while a write to it waits.
public struct WebRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
