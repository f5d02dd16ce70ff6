import NIOCore
import Synchronization

/// One admitted client as the hub and its requests' answers reach it: an outbox of its own, bounded, that
/// its connection's writer drains. A client with more than `queueLimit` events waiting there is not keeping
/// up: the hub drops it (`EventHub.dropSlow`), never waits on it. Answers are checked by the writer instead.
///
/// While the outbox is empty the hub writes a live line to the channel itself (`writeLive`, on the channel's
/// loop): waking the writer task for every line to every client cost more than the rest of the fan-out.
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
    /// Items posted and not yet carried out by the writer, plus one while a replay's lines may fill the
    /// channel (`hold`): only at 0 may a live line skip the outbox, after everything the writer wrote.
    private let unwritten = Atomic<Int>(0)
    /// Lines in the channel not yet taken by the kernel, the writer's and the hub's.
    let pending = PendingLines()
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
        unwritten.add(1, ordering: .sequentiallyConsistent)
        switch outbox.yield(item) {
        case .enqueued(let remaining): return remaining < Self.spare ? .full(waiting: queueLimit + Self.spare - remaining) : .taken
        case .dropped:
            handled()
            return .lost(waiting: queueLimit + Self.spare)
        case .terminated:
            handled()
            return .gone
        @unknown default: return .gone
        }
    }

    /// Whether the writer has nothing left to write: a live line may go to the channel at once.
    var isIdle: Bool { unwritten.load(ordering: .sequentiallyConsistent) == 0 }

    /// The writer carried out an item (its lines are in the loop's queue), or ended a `hold`.
    func handled() { unwritten.subtract(1, ordering: .sequentiallyConsistent) }

    /// A replay's lines may fill the channel: live lines go through the writer, which tells them apart.
    func hold() { unwritten.add(1, ordering: .sequentiallyConsistent) }

    /// Writes a live line the hub posted past the outbox (`isIdle`), on the channel's loop; drops the client
    /// if it is not keeping up: `queueLimit` lines waiting, or more bytes than the channel's high-water mark.
    func writeLive(_ line: ByteBuffer) {
        guard channel.isActive else { return }  // gone: its connection's task takes it out
        let waiting = pending.value
        guard waiting < queueLimit && channel.isWritable else { return slow(waiting) }
        pending.add(1)
        let pending = pending
        channel.writeAndFlush(line).whenComplete { _ in pending.taken(1) }
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
