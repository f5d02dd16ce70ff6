import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ScandProtocol

/// `scand web`'s side of the daemon's `EventHub`: its one daemon subscription fanned out to every /events
/// client, each with a bounded queue of its own. A client that overflows it is dropped (`onOverflow`): a
/// client that must miss nothing resumes from the journal, the setup page opens a stream anew (with a VIEW).
public final class PageHub: Sendable {
    public enum Item: Sendable, Equatable {
        case event(ReceivedEvent)
        /// Time to show an idle stream is alive (every `keepaliveInterval`).
        case keepalive
    }

    private struct Subscriber {
        var continuation: AsyncStream<Item>.Continuation
        var onOverflow: @Sendable () -> Void
    }
    private struct State {
        var subscribers: [UUID: Subscriber] = [:]
        var latest: EventPosition?
        var view = PageView()
        var finished = false
    }
    /// Locked: a page's stream ending (`onTermination`, synchronous, on any thread) removes its subscriber.
    private let state = NIOLockedValueBox(State())
    /// Lines waiting per page, as the daemon's `queue_limit`.
    static let queueLimit = 256
    static let keepaliveInterval: Duration = .seconds(15)

    public init() {}

    /// The items to come, the newest event passed on before them (every later one is in the stream), and the
    /// `PageView` line of what was passed on before them (a page's first line): all taken under one lock, so
    /// nothing is in both and nothing between them is missed. The stream ends when the hub finishes (scand
    /// web stopping), after an overflow, or on `end`.
    /// - Parameter onOverflow: called once when the queue is full; the stream then ends.
    func subscribe(
        onOverflow: @escaping @Sendable () -> Void
    ) -> (items: AsyncStream<Item>, latest: EventPosition?, view: String?, end: @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
        let id = UUID()
        let (added, latest, view) = state.withLockedValue { state in
            guard !state.finished else { return (false, state.latest, state.view.line) }
            state.subscribers[id] = Subscriber(continuation: continuation, onOverflow: onOverflow)
            return (true, state.latest, state.view.line)
        }
        if !added { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLockedValue { $0.subscribers.removeValue(forKey: id) }
        }
        return (stream, latest, view, { continuation.finish() })
    }

    public var subscriberCount: Int { state.withLockedValue { $0.subscribers.count } }

    /// The newest event passed on, for tests.
    var latestForTests: EventPosition? { state.withLockedValue { $0.latest } }

    /// Passes `line` on to every page; the position is noted under the same lock, so a page that
    /// subscribes gets either the line or a `latest` at or after it.
    public func broadcast(_ line: ReceivedEvent) {
        send(.event(line), position: line.position)
    }

    /// The daemon is out of reach: no code is known to be in view (the pages clear their outlines too).
    func daemonLost() { state.withLockedValue { $0.view.clearInView() } }

    /// The view a page opened now would be greeted with, for tests.
    var viewForTests: String? { state.withLockedValue { $0.view.line } }

    func keepalive() { send(.keepalive, position: nil) }

    private func send(_ item: Item, position: EventPosition?) {
        let overflowed = state.withLockedValue { state -> [Subscriber] in
            if let position { state.latest = position }
            if case .event(let line) = item { state.view.take(line) }
            var overflowed: [Subscriber] = []
            for (id, subscriber) in state.subscribers {
                if case .dropped = subscriber.continuation.yield(item) {
                    overflowed.append(subscriber)
                    state.subscribers.removeValue(forKey: id)
                }
            }
            return overflowed
        }
        for subscriber in overflowed {
            subscriber.continuation.finish()
            subscriber.onOverflow()
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
