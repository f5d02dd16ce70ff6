import Foundation
import NIOConcurrencyHelpers

/// The daemon's event lines fanned out to every WebSocket: one daemon subscription, however many pages.
/// Each page has a bounded queue of its own; a page that does not keep up loses its oldest lines, and
/// nobody else notices.
public final class EventHub: Sendable {
    private struct State {
        var subscribers: [UUID: AsyncStream<String>.Continuation] = [:]
        var finished = false
    }
    private let state = NIOLockedValueBox(State())
    static let queueLimit = 256

    public init() {}

    /// A stream of the lines to come; it ends when the hub finishes (scand web stopping).
    public func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(Self.queueLimit))
        let id = UUID()
        let added = state.withLockedValue { state in
            guard !state.finished else { return false }
            state.subscribers[id] = continuation
            return true
        }
        if !added { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLockedValue { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    public var subscriberCount: Int { state.withLockedValue { $0.subscribers.count } }

    public func broadcast(_ line: String) {
        for continuation in state.withLockedValue({ Array($0.subscribers.values) }) { continuation.yield(line) }
    }

    /// Ends every stream, and those subscribed later at once.
    public func finish() {
        let all = state.withLockedValue { state in
            state.finished = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in all { continuation.finish() }
    }
}
