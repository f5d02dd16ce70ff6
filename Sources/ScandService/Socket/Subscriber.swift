import NIOCore
import ScandCore
import NIOConcurrencyHelpers

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
        var closing = false
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

    /// Sets (or with nil clears) what the subscriber receives.
    func watch(_ watch: ClientRequest.Watch?) { state.withLockedValue { $0.watch = watch } }

    func accepts(_ event: Event) -> Bool { state.withLockedValue { $0.watch?.accepts(event) ?? false } }

    /// No more lines: the connection is being closed.
    func close() { state.withLockedValue { $0.closing = true } }

    /// Writes one line, or drops the client if it is not keeping up.
    func send(_ line: String) {
        enum Outcome { case write, slow(Int), closed }
        let outcome: Outcome = state.withLockedValue { s in
            guard !s.closing else { return .closed }
            guard s.queued < queueLimit && channel.isWritable else {
                s.closing = true
                return .slow(s.queued)
            }
            s.queued += 1
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
            written.futureResult.whenComplete { [self] _ in state.withLockedValue { $0.queued -= 1 } }
            channel.writeAndFlush(buffer, promise: written)
        }
    }
}
