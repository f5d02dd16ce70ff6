import ScandProtocol

/// One socket client's way from `?WATCH={"enable":true,"since":{"boot":…,"seq":N}};` to live events, with
/// no gap and no duplicate. It does no I/O: the daemon feeds it journal batches and live events and carries
/// out the actions it returns.
///
/// The daemon must register the client for live events *before* it asks for the first batch (so every
/// event published from then on also reaches `live`), and journal each event before publishing it. Then
/// an event is either in a batch, or queued here, or both; `cursor` (the last seq sent) drops the second
/// copy, in the replay and after it. An event whose append failed (disk full) is only queued: it is sent
/// in its place between the journaled ones, and never dropped from the queue.
public struct ReplayHandover: Sendable {
    public enum Action: Sendable, Equatable {
        /// Send an ERROR with this message (the `since` is not in the journal), then go on.
        case error(String)
        /// Read the next batch of journaled events with seq > this one, and pass it to `journaled`.
        case read(after: Int)
        /// Send this line to the client (a replayed one already carries `"replayed":true`).
        case send(String)
        /// The replay is over: events from now on go through `live` and are sent as they come.
        case goLive
    }

    public private(set) var cursor: Int
    public private(set) var isLive = false
    private var queued: [(seq: Int, line: String, journaled: Bool)] = []
    private var queueOverflowed = false
    let batchLimit: Int
    let queueLimit: Int

    /// The actions to start with. `span` is nil for an empty journal; `journalBase` is the seq the journal
    /// was started after (0 for a first one); `bootAt` gives the boot of the journaled event with that seq,
    /// if the journal holds it.
    public static func start(
        since: EventPosition, span: JournalSpan?, journalBase: Int = 0, batchLimit: Int = 256, queueLimit: Int = 1024,
        bootAt: (Int) -> String?
    ) -> (ReplayHandover, [Action]) {
        guard let span else {
            // A new journal numbers from 1: the client's seq is from another one.
            var handover = ReplayHandover(cursor: 0, batchLimit: batchLimit, queueLimit: queueLimit)
            handover.isLive = true
            return (handover, [.error("since \(since.json) is not in the journal, which is empty; live events follow"), .goLive])
        }
        // No `since.seq + 1`: a seq is range-checked where it is read, but the handover does not rely on it.
        let continues = bootAt(since.seq) == since.boot || (since.seq == span.first - 1 && bootAt(span.first) == since.boot)
        if continues {
            let handover = ReplayHandover(cursor: since.seq, batchLimit: batchLimit, queueLimit: queueLimit)
            return (handover, [.read(after: since.seq)])
        }
        // A seq at or before the journal's start is from one it replaced (removed or damaged), not pruned.
        let why =
            since.seq <= journalBase
            ? "this journal was started after seq \(journalBase), replacing the one it is from"
            : since.seq < span.first ? "older events were pruned" : "it is not from this journal"
        let handover = ReplayHandover(cursor: span.first - 1, batchLimit: batchLimit, queueLimit: queueLimit)
        return (
            handover,
            [
                .error("since \(since.json) is not in the journal (\(why)): the \(span.summary); replaying all of those"),
                .read(after: span.first - 1)
            ]
        )
    }

    init(cursor: Int, batchLimit: Int, queueLimit: Int) {
        self.cursor = cursor
        self.batchLimit = max(1, batchLimit)
        self.queueLimit = max(1, queueLimit)
    }

    /// A batch the daemon read after `.read(after:)`: at most `batchLimit` events in seq order.
    public mutating func journaled(_ batch: [JournaledEvent]) -> [Action] {
        guard !isLive else { return [] }
        var actions: [Action] = []
        for event in batch where event.seq > cursor {
            // Queued events before this one are not in the journal (else they would be in this batch).
            sendQueued(before: event.seq, into: &actions)
            actions.append(.send(EventEncoder.markingReplayed(event.line)))
            cursor = event.seq
        }
        queued.removeAll { $0.seq <= cursor }
        // A full batch: there may be more. A queue that overflowed lost events the journal still has.
        if batch.count >= batchLimit || queueOverflowed {
            queueOverflowed = false
            actions.append(.read(after: cursor))
            return actions
        }
        // Caught up with the journal: what is queued came after it (or was never journaled).
        sendQueued(before: Int.max, into: &actions)
        isLive = true
        actions.append(.goLive)
        return actions
    }

    /// Whether `batch`, taken next, ends the replay: it is short, and no live event was left out since the
    /// last one. The daemon asks before it takes the batch, to stop holding events for the replay at once.
    public func goesLive(after batch: [JournaledEvent]) -> Bool {
        !isLive && batch.count < batchLimit && !queueOverflowed
    }

    /// Live events were left out on their way here (the client's outbox was full): the journal has them, so
    /// the replay reads it again after the next batch rather than go live.
    public mutating func missedLive() {
        guard !isLive else { return }
        queueOverflowed = true
    }

    /// The journal failed in the middle of a replay: what is queued goes out and the client goes live.
    public mutating func journalFailed(_ reason: String) -> [Action] {
        guard !isLive else { return [] }
        var actions: [Action] = [.error("the replay stopped: \(reason); live events follow")]
        sendQueued(before: Int.max, into: &actions)
        isLive = true
        actions.append(.goLive)
        return actions
    }

    private mutating func sendQueued(before seq: Int, into actions: inout [Action]) {
        while let head = queued.first, head.seq < seq {
            queued.removeFirst()
            guard head.seq > cursor else { continue }
            actions.append(.send(head.line))
            cursor = head.seq
        }
    }

    /// A live event (numbered `seq`) published while this client replays or after; `journaled`: its
    /// append succeeded.
    public mutating func live(seq: Int, line: String, journaled: Bool = true) -> [Action] {
        guard seq > cursor else { return [] }
        guard isLive else {
            if queued.count >= queueLimit {
                // The journal has these: drop them rather than grow the queue, and read on.
                let before = queued.count
                queued.removeAll { $0.journaled }
                queueOverflowed = queueOverflowed || queued.count < before
            }
            queued.append((seq, line, journaled))
            return []
        }
        cursor = seq
        return [.send(line)]
    }
}
