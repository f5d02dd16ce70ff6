import NIOCore

/// One admitted client as the hub and its requests' answers reach it: an outbox of its own, bounded, that
/// its connection's writer drains. A client with more than `queueLimit` events waiting there is not keeping
/// up: the hub drops it (`EventHub.dropSlow`), never waits on it. Answers are checked by the writer instead.
final class Subscriber: Sendable {
    /// Room past the queue limit for answers, their places and a replay's steps, bounded by the requests one
    /// connection may have waiting.
    static let spare = 2 * ClientConnection.maxAnswersWaiting + 16

    enum Posted: Equatable {
        case taken
        /// Taken, but more than the queue limit waits.
        case full(waiting: Int)
        /// Not taken: the outbox is full to its spare room.
        case lost(waiting: Int)
        /// The connection is gone.
        case gone
    }

    let uid: UInt32?
    let peer: String
    let channel: any Channel
    private let queueLimit: Int
    private let outbox: AsyncStream<Outgoing>.Continuation
    /// Drops the client for being slow: counts it once (`EventHub.dropSlow`), logs it and closes the connection.
    private let onSlow: @Sendable (Subscriber, Int) -> Void

    /// A subscriber and the outbox its writer reads.
    static func make(
        channel: any Channel, uid: UInt32?, peer: String, queueLimit: Int, onSlow: @escaping @Sendable (Subscriber, Int) -> Void
    ) -> (Subscriber, AsyncStream<Outgoing>) {
        let (items, outbox) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .bufferingOldest(max(1, queueLimit) + spare))
        return (Subscriber(channel: channel, uid: uid, peer: peer, queueLimit: max(1, queueLimit), outbox: outbox, onSlow: onSlow), items)
    }

    private init(
        channel: any Channel, uid: UInt32?, peer: String, queueLimit: Int, outbox: AsyncStream<Outgoing>.Continuation,
        onSlow: @escaping @Sendable (Subscriber, Int) -> Void
    ) {
        self.channel = channel
        self.uid = uid
        self.peer = peer
        self.queueLimit = queueLimit
        self.outbox = outbox
        self.onSlow = onSlow
    }

    /// Puts an item in the outbox; never waits.
    func post(_ item: Outgoing) -> Posted {
        switch outbox.yield(item) {
        case .enqueued(let remaining): remaining < Self.spare ? .full(waiting: queueLimit + Self.spare - remaining) : .taken
        case .dropped: .lost(waiting: queueLimit + Self.spare)
        case .terminated: .gone
        @unknown default: .gone
        }
    }

    /// Posts what the writer checks itself or what is no line of its own (an answer, a place, a replay's
    /// step): past the queue limit it still goes in, into the spare room.
    func step(_ item: Outgoing) {
        if case .lost(let waiting) = post(item) { slow(waiting) }
    }

    /// Drops the client for being slow, with `waiting` items behind.
    func slow(_ waiting: Int) { onSlow(self, waiting) }

    /// No more items: what waits is not written, and the connection closes.
    func close() {
        outbox.finish()
        channel.close(promise: nil)
    }
}
