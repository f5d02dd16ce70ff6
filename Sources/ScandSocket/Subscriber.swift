import NIOCore
import ScandCore
import ScandProtocol
import NIOConcurrencyHelpers
import ScandEventLog

/// One admitted socket client as the hub sees it: its channel and its WATCH filters. Lines may be sent from
/// any thread (`Channel` is thread-safe); every line, reply or event, counts against the queue limit until
/// the kernel takes it. A client with `queueLimit` lines waiting, or whose channel went unwritable (more than
/// the high-water mark of bytes waiting), is disconnected and counted, never waited on.
final class Subscriber: Sendable {
    let channel: Channel
    let uid: UInt32?
    let peer: String
    private let queueLimit: Int
    /// Called once when the subscriber is dropped for being slow, with the number of lines that waited.
    private let onSlow: @Sendable (Subscriber, Int) -> Void
    private struct State {
        var watch: ClientRequest.Watch?
        var queued = 0
        /// Of `queued`, the lines of a replay: paced by `whenDrained`, not held against the client.
        var replayQueued = 0
        var closing = false
        var replay: SubscriberReplay?
        var onDrained: (@Sendable () -> Void)?
        /// The last numbered event published since the subscriber was admitted (sent to it or not), or
        /// before that the last one published before it.
        var position: EventPosition?
    }
    private let state = NIOLockedValueBox(State())

    init(channel: Channel, uid: UInt32?, peer: String, queueLimit: Int, onSlow: @escaping @Sendable (Subscriber, Int) -> Void) {
        self.channel = channel
        self.uid = uid
        self.peer = peer
        self.queueLimit = queueLimit
        self.onSlow = onSlow
    }

    var isWatching: Bool { state.withLockedValue { $0.watch != nil } }

    /// Sets (or with nil clears) what the subscriber receives. Returns the position of the last numbered
    /// event published before the new watch took effect: every later one is delivered under it.
    @discardableResult
    func watch(_ watch: ClientRequest.Watch?) -> EventPosition? {
        state.withLockedValue {
            $0.watch = watch
            return $0.position
        }
    }

    /// Where the subscriber stands when it is admitted: after `position` (nil: before any numbered event).
    func start(after position: EventPosition?) { state.withLockedValue { $0.position = position } }

    func accepts(_ event: Event) -> Bool { state.withLockedValue { $0.watch?.accepts(event) ?? false } }

    /// Starts (or with nil ends) receiving live events through a replay of the journal.
    func replay(_ replay: SubscriberReplay?) { state.withLockedValue { $0.replay = replay } }

    var currentReplay: SubscriberReplay? { state.withLockedValue { $0.replay } }

    var isClosing: Bool { state.withLockedValue { $0.closing } }

    /// No more lines: the connection is being closed.
    func close() {
        let drained = state.withLockedValue { s in
            s.closing = true
            s.replay = nil
            defer { s.onDrained = nil }
            return s.onDrained
        }
        drained?()
    }

    /// A published event: through the replay while there is one, else sent if the WATCH filters take it.
    /// `position`: the event's, when it is numbered.
    func deliver(_ published: PublishedEvent, position: EventPosition? = nil) {
        let (replay, accepted) = state.withLockedValue { s in
            if let position { s.position = position }
            return (s.replay, s.watch?.accepts(published.event) ?? false)
        }
        if let replay, replay.live(published) { return }
        if accepted { send(published.line) }
    }

    /// Runs `action` once at most `lowWater` lines wait (at once if they already do, or if the client is closing).
    func whenDrained(lowWater: Int, _ action: @escaping @Sendable () -> Void) {
        let now = state.withLockedValue { s in
            guard !s.closing && s.queued > lowWater else { return true }
            s.onDrained = action
            return false
        }
        if now { action() }
    }

    /// Writes one line, or drops the client if it is not keeping up. A replay's lines (`paced`) are bounded
    /// by the replay itself and do not count as falling behind.
    func send(_ line: String, paced: Bool = false) {
        enum Outcome { case write, slow(Int), closed }
        let outcome: Outcome = state.withLockedValue { s in
            guard !s.closing else { return .closed }
            // While a replay's lines are in flight, the channel's bytes are mostly theirs.
            guard paced || (s.queued - s.replayQueued < queueLimit && (s.replayQueued > 0 || channel.isWritable)) else {
                s.closing = true
                return .slow(s.queued)
            }
            s.queued += 1
            if paced { s.replayQueued += 1 }
            return .write
        }
        switch outcome {
        case .closed:
            return
        case .slow(let waiting):
            onSlow(self, waiting)
            channel.close(promise: nil)
        case .write:
            var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
            buffer.writeString(line)
            buffer.writeInteger(UInt8(ascii: "\n"))
            let written = channel.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { [self] _ in
                let drained = state.withLockedValue { s -> (@Sendable () -> Void)? in
                    s.queued -= 1
                    if paced { s.replayQueued -= 1 }
                    guard s.queued <= SubscriberReplay.lowWater, let action = s.onDrained else { return nil }
                    s.onDrained = nil
                    return action
                }
                drained?()
            }
            channel.writeAndFlush(buffer, promise: written)
        }
    }
}
