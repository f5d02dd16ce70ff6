import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 child channel behind the first-request guards
/// (`FirstRequestHeadGuard`), with at most `limits.maxConnections` connections served, so idle clients
/// cannot take every file descriptor.
struct GuardedHTTPChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let limits: WebServerLimits
    let connections: Slots
    let metrics: WebMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admitted = connections.take()
        if admitted {
            metrics.connections.increment()
            channel.closeFuture.whenComplete { [connections, metrics] _ in
                connections.giveBack()
                metrics.connections.decrement()
            }
        }
        let headGuard = FirstRequestHeadGuard(timeout: limits.headerTimeout, maxBytes: limits.maxHeaderBytes, full: !admitted)
        do {
            try channel.pipeline.syncOperations.addHandler(headGuard, position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).assumeIsolated().flatMapThrowing { value in
            try FirstRequestDecodeWatch.add(to: channel, for: headGuard)
            return value
        }.nonisolated()
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
