import NIOCore
import NIOPosix

/// The writer of a client's outbox: takes it in order (live lines that skip an empty one come after). Answers go out in the order their
/// requests came (`ReplyOrder`), events as they come, a replay's lines paced by the connection (the writer
/// waits for room, and reads the next batch once the channel took the last). Any other line goes to the
/// channel at once, or drops the client if it is not keeping up (see `write`).
struct ClientWriter {
    let client: Subscriber
    let hub: EventHub
    let pool: NIOThreadPool
    /// Tells the reader how many answers are out: the requests waiting for them may start.
    let answersOut: AsyncStream<Int>.Continuation
    private var order = ReplyOrder()
    private var replay: SubscriberReplay?
    /// A replay's lines may still fill the channel: a full channel is theirs, not the client's. Meanwhile live
    /// lines come through the outbox, to be told apart here (`Subscriber.hold`).
    private var replayInFlight = false {
        didSet {
            if replayInFlight && !oldValue { client.hold() }
            if !replayInFlight && oldValue { client.handled() }
        }
    }

    init(client: Subscriber, hub: EventHub, pool: NIOThreadPool, answersOut: AsyncStream<Int>.Continuation) {
        self.client = client
        self.hub = hub
        self.pool = pool
        self.answersOut = answersOut
    }

    /// Writes until the outbox ends, the client is dropped, or the connection closes; then closes it.
    mutating func run(_ outbox: AsyncStream<Outgoing>, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async {
        defer {
            answersOut.finish()
            client.close()
        }
        do {
            for await item in outbox {
                guard try await take(item, outbound) else { return }
                client.handled()
            }
        } catch {
            // The connection closed under the write.
        }
    }

    /// Carries out one item; false when the connection ends.
    private mutating func take(_ item: Outgoing, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> Bool {
        switch item {
        case .line(let line):
            return try await write([line], paced: false, outbound)
        case .reserve:
            _ = order.reserve()
        case .answer(let ticket, let line):
            guard try await write(order.answer(ticket, line), paced: false, outbound) else { return false }
            answersOut.yield(order.answered)
        case .live(let event):
            guard replay != nil else { return true }  // a replay's, published before the WATCH that ended it
            return try await carry(replay!.live(event), outbound)
        case .replay(let request):
            replay = request.map { SubscriberReplay($0, client: client, pool: pool, queueLimit: hub.queueLimit) }
        case .beginReplay(let id):
            if replay?.id == id { replay?.begin() }
        case .replayBegun(let id, let made):
            guard replay?.id == id else { return true }
            return try await carry(replay!.begun(made), outbound)
        case .batch(let id, let read):
            guard replay?.id == id else { return true }
            let client = client, hub = hub
            return try await carry(replay!.journaled(read) { hub.replayCaughtUp(client, replay: id, goingLive: $0) }, outbound)
        case .closing(let line):
            _ = try await write([line], paced: true, outbound)
            return false
        }
        return true
    }

    /// Carries out a replay's steps in order: lines written, the next batch read once they are.
    private mutating func carry(_ steps: [SubscriberReplay.Step], _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> Bool {
        var lines: [String] = []
        var paced = true
        for step in steps {
            switch step {
            case .send(let line, let replayed):
                if replayed != paced, !lines.isEmpty {
                    guard try await write(lines, paced: paced, outbound) else { return false }
                    lines = []
                }
                paced = replayed
                lines.append(line)
            case .read(let after):
                guard try await write(lines, paced: paced, outbound) else { return false }
                lines = []
                replay?.read(after: after)
            }
        }
        guard try await write(lines, paced: paced, outbound) else { return false }
        // Live now (at once, or as the journal failed): the hub's events for it are a slow client's from here.
        if let replay, replay.isLive { hub.replayWentLive(client, replay: replay.id) }
        return true
    }

    /// Writes lines; false when the client was dropped for not keeping up. `paced`: a replay's, which wait for
    /// room in the channel. Any other line goes to the channel at once, or the client is dropped: it has
    /// `queueLimit` lines waiting, or more bytes than the channel's high-water mark while no replay's lines
    /// are in flight (the channel's bytes are mostly theirs then).
    private mutating func write(_ lines: [String], paced: Bool, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> Bool {
        guard !lines.isEmpty else { return true }
        let channel = client.channel
        if paced {
            replayInFlight = true
            try await outbound.write(contentsOf: lines.map { ByteBuffer(string: $0 + "\n") })
            return true
        }
        if channel.isWritable { replayInFlight = false }
        let pending = client.pending, waiting = pending.value
        guard waiting < hub.queueLimit && (replayInFlight || channel.isWritable) else {
            client.slow(waiting)
            return false
        }
        // Through the channel, not `outbound`, which would wait for room: in the loop's order all the same. The
        // write and its completion's callback in one hop onto the loop: from here each would be a hop of its own
        // (a future's callback added off its loop is one), for every line to every client.
        pending.add(lines.count)
        let count = lines.count, buffer = ByteBuffer(string: lines.joined(separator: "\n") + "\n")
        channel.eventLoop.execute { channel.writeAndFlush(buffer).whenComplete { _ in pending.taken(count) } }
        return true
    }
}
