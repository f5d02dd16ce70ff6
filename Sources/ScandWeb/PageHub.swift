import Foundation
import ScandCore
import ScandProtocol

/// `scand web`'s side of the daemon's `EventHub`: its one daemon subscription fanned out to every /events
/// client, each with a bounded queue of its own. A client that overflows it is dropped (`onOverflow`): a
/// client that must miss nothing resumes from the journal, the setup page opens a stream anew (with a VIEW).
/// An actor: nothing it does blocks (a page's queue is its `AsyncStream`'s buffer).
public actor PageHub {
    public enum Item: Sendable, Equatable {
        case event(ReceivedEvent)
        /// Time to show an idle stream is alive (every `keepaliveInterval`).
        case keepalive
    }

    private struct Subscriber {
        var continuation: AsyncStream<Item>.Continuation
        var onOverflow: @Sendable () -> Void
    }
    private var subscribers: [UUID: Subscriber] = [:]
    private var latest: EventPosition?
    private var view = PageView()
    private var finished = false
    /// Lines waiting per page, as the daemon's `queue_limit`.
    static let queueLimit = 256
    static let keepaliveInterval: Duration = .seconds(15)

    public init() {}

    /// The items to come, the newest event passed on before them (every later one is in the stream), and the
    /// `PageView` line of what was passed on before them (a page's first line): all taken in one turn of the
    /// actor, so nothing is in both and nothing between them is missed. The stream ends when the hub finishes
    /// (scand web stopping), after an overflow, or on `end`.
    /// - Parameter onOverflow: called once when the queue is full; the stream then ends.
    func subscribe(
        onOverflow: @escaping @Sendable () -> Void
    ) -> (items: AsyncStream<Item>, latest: EventPosition?, view: String?, end: @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
        let id = UUID()
        if finished {
            continuation.finish()
        } else {
            subscribers[id] = Subscriber(continuation: continuation, onOverflow: onOverflow)
            // A page's stream ending (synchronous, on any thread) removes its subscriber in a turn of its own.
            continuation.onTermination = { [weak self] _ in
                Task { await self?.remove(id) }
            }
        }
        return (stream, latest, view.line, { continuation.finish() })
    }

    private func remove(_ id: UUID) { subscribers.removeValue(forKey: id) }

    public var subscriberCount: Int { subscribers.count }

    /// The newest event passed on, for tests.
    var latestForTests: EventPosition? { latest }

    /// Passes `line` on to every page; the position is noted in the same turn, so a page that subscribes gets
    /// either the line or a `latest` at or after it.
    public func broadcast(_ line: ReceivedEvent) {
        send(.event(line), position: line.position)
    }

    /// The daemon is out of reach: no code is known to be in view (the pages clear their outlines too).
    func daemonLost() { view.clearInView() }

    /// The view a page opened now would be greeted with, for tests.
    var viewForTests: String? { view.line }

    func keepalive() { send(.keepalive, position: nil) }

    private func send(_ item: Item, position: EventPosition?) {
        if let position { latest = position }
        if case .event(let line) = item { view.take(line) }
        for (id, subscriber) in subscribers {
            if case .dropped = subscriber.continuation.yield(item) {
                subscribers.removeValue(forKey: id)
                subscriber.continuation.finish()
                subscriber.onOverflow()
            }
        }
    }

    /// Ends every stream, and those subscribed later at once.
    public func finish() {
        finished = true
        let all = subscribers.values
        subscribers = [:]
        for subscriber in all { subscriber.continuation.finish() }
    }
}
