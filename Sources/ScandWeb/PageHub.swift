import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ScandProtocol

/// `scand web`'s side of the daemon's `EventHub`: its one daemon subscription fanned out to every page, each
/// with a bounded queue of its own. Overflow: a WebSocket page (which shows the present) loses its oldest
/// lines; an /events client (which must miss nothing) is dropped (`onOverflow`) and resumes from the journal.
public final class PageHub: Sendable {
    public enum Item: Sendable, Equatable {
        case event(ReceivedEvent)
        /// Time to show an idle stream is alive (every `keepaliveInterval`).
        case keepalive
    }

    private struct Subscriber {
        var continuation: AsyncStream<Item>.Continuation
        var onOverflow: (@Sendable () -> Void)?
    }
    private struct State {
        var subscribers: [UUID: Subscriber] = [:]
        var latest: EventPosition?
        var finished = false
    }
    private let state = NIOLockedValueBox(State())
    /// Lines waiting per page, as the daemon's `queue_limit`.
    static let queueLimit = 256
    static let keepaliveInterval: Duration = .seconds(15)

    public init() {}

    /// The items to come, and the newest event passed on before them (every later one is in the stream);
    /// the stream ends when the hub finishes (scand web stopping), after an overflow, or on `end`.
    /// - Parameter onOverflow: called once when the queue is full; the stream then ends. Without it the
    ///   oldest items are dropped instead.
    func subscribe(
        onOverflow: (@Sendable () -> Void)? = nil
    ) -> (items: AsyncStream<Item>, latest: EventPosition?, end: @Sendable () -> Void) {
        let policy: AsyncStream<Item>.Continuation.BufferingPolicy =
            onOverflow == nil ? .bufferingNewest(Self.queueLimit) : .bufferingOldest(Self.queueLimit)
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: policy)
        let id = UUID()
        let (added, latest) = state.withLockedValue { state in
            guard !state.finished else { return (false, state.latest) }
            state.subscribers[id] = Subscriber(continuation: continuation, onOverflow: onOverflow)
            return (true, state.latest)
        }
        if !added { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLockedValue { $0.subscribers.removeValue(forKey: id) }
        }
        return (stream, latest, { continuation.finish() })
    }

    public var subscriberCount: Int { state.withLockedValue { $0.subscribers.count } }

    /// The newest event passed on, for tests.
    var latestForTests: EventPosition? { state.withLockedValue { $0.latest } }

    /// Passes `line` on to every page; the position is noted under the same lock, so a page that
    /// subscribes gets either the line or a `latest` at or after it.
    public func broadcast(_ line: ReceivedEvent) {
        send(.event(line), position: line.position)
    }

    func keepalive() { send(.keepalive, position: nil) }

    private func send(_ item: Item, position: EventPosition?) {
        let overflowed = state.withLockedValue { state -> [Subscriber] in
            if let position { state.latest = position }
            var overflowed: [Subscriber] = []
            for (id, subscriber) in state.subscribers {
                if case .dropped = subscriber.continuation.yield(item), subscriber.onOverflow != nil {
                    overflowed.append(subscriber)
                    state.subscribers.removeValue(forKey: id)
                }
            }
            return overflowed
        }
        for subscriber in overflowed {
            subscriber.continuation.finish()
            subscriber.onOverflow?()
        }
    }

    /// Ends every stream, and those subscribed later at once.
    public func finish() {
        let all = state.withLockedValue { state in
            state.finished = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in all { subscriber.continuation.finish() }
    }
}
