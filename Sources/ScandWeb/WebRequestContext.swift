import Hummingbird
import NIOCore

/// The request context of `scand web`: Hummingbird's, and the connection, so that an /events client that
/// does not keep up can be disconnected even while a write to it waits.
public struct WebRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
