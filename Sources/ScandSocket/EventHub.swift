import NIOConcurrencyHelpers
import NIOCore
import ScandCore
import ScandEventLog
import ScandProtocol

/// Fans each event out to every subscriber whose WATCH filters accept it, encoded once, into each one's
/// bounded outbox, or while that is empty, in one buffer straight to its channel. A subscriber that stops reading is disconnected and counted, never waited on: capture and
/// the other subscribers do not notice it. Admission is bounded twice: `maxClients` in all,
/// `maxClientsPerUID` for one user, so one broken application cannot take every slot.
///
/// It also knows where the subscribers stand in the daemon's numbering: the last numbered event published. A
/// WATCH without a `since` is answered with that position, so a client holds one from its first subscription.
///
/// The one lock of the socket: events are published from the daemon's `EventRuntime` loop, watches set from
/// the connections' tasks, and each event must reach every outbox in the order published.
public final class EventHub: Sendable {
    let queueLimit: Int
    let maxClients: Int
    let maxClientsPerUID: Int
    private struct State {
        var clients: [ObjectIdentifier: HubClient] = [:]
        var perUID: [UInt32: Int] = [:]
        var counters = ClientCounters()
        /// The boot the events are numbered under (nil: the daemon numbers none), and the position of the
        /// last numbered event published (before the first: the journal's last event).
        var boot: String?
        var last: EventPosition?

        /// Takes a client out of the hub; false if it was out already.
        mutating func remove(_ client: Subscriber) -> Bool {
            guard let gone = clients.removeValue(forKey: ObjectIdentifier(client)) else { return false }
            if let uid = gone.subscriber.uid { perUID[uid] = perUID[uid, default: 1] > 1 ? perUID[uid]! - 1 : nil }
            return true
        }
    }
    private let state = NIOLockedValueBox(State())

    public init(queueLimit: Int, maxClients: Int, maxClientsPerUID: Int = .max) {
        self.queueLimit = queueLimit
        self.maxClients = maxClients
        self.maxClientsPerUID = maxClientsPerUID
    }

    public var counters: ClientCounters {
        state.withLockedValue { s in
            var c = s.counters
            c.connected = s.clients.count
            c.watching = s.clients.values.count(where: { $0.watch != nil })
            return c
        }
    }

    /// Admits a subscriber, or says why not.
    func admit(_ client: Subscriber) -> String? {
        state.withLockedValue { s in
            guard s.clients.count < maxClients else {
                s.counters.refused += 1
                return "too many clients (\(maxClients)); try again later"
            }
            if let uid = client.uid {
                guard s.perUID[uid, default: 0] < maxClientsPerUID else {
                    s.counters.refused += 1
                    return "too many connections from uid \(uid) (\(maxClientsPerUID)); close some and try again"
                }
                s.perUID[uid, default: 0] += 1
            }
            s.clients[ObjectIdentifier(client)] = HubClient(subscriber: client)
            s.counters.totalConnections += 1
            return nil
        }
    }

    func remove(_ client: Subscriber) { _ = state.withLockedValue { $0.remove(client) } }

    /// Takes a slow client out and counts it, once: true for the caller that did.
    func dropSlow(_ client: Subscriber) -> Bool {
        state.withLockedValue { s in
            guard s.remove(client) else { return false }
            s.counters.droppedSlow += 1
            return true
        }
    }

    func countTimeout() { state.withLockedValue { $0.counters.timedOut += 1 } }

    /// Sets (or with nil clears) what the client receives, and the replay its numbered events go to (nil:
    /// none). Returns the position of the last numbered event published before: every later one reaches it.
    func watch(_ client: Subscriber, _ watch: ClientRequest.Watch?, replay: Int?) -> EventPosition? {
        state.withLockedValue { s in
            s.clients[ObjectIdentifier(client)]?.watch = watch
            s.clients[ObjectIdentifier(client)]?.replay = replay
            s.clients[ObjectIdentifier(client)]?.lagged = false
            return s.last
        }
    }

    /// Replay `id` about to take a batch read from the journal: whether events were left out since the last
    /// batch (it reads again for them). When none were and `goingLive`, it goes live here, under the lock:
    /// from now on an event that does not fit is a slow client's.
    func replayCaughtUp(_ client: Subscriber, replay id: Int, goingLive: Bool) -> Bool {
        state.withLockedValue { s in
            guard let found = s.clients[ObjectIdentifier(client)], found.replay == id else { return false }
            s.clients[ObjectIdentifier(client)]?.lagged = false
            if goingLive && !found.lagged { s.clients[ObjectIdentifier(client)]?.replay = nil }
            return found.lagged
        }
    }

    /// Replay `id` went live with no batch to check (at once, or as the journal failed): its client's events
    /// are sent as they come from here.
    func replayWentLive(_ client: Subscriber, replay id: Int) {
        state.withLockedValue { s in
            guard s.clients[ObjectIdentifier(client)]?.replay == id else { return }
            s.clients[ObjectIdentifier(client)]?.replay = nil
            s.clients[ObjectIdentifier(client)]?.lagged = false
        }
    }

    /// Sends an event to every subscriber that watches for it (or replays); from any thread. The daemon
    /// publishes one at a time from its `EventRuntime`'s loop, so numbered events arrive in seq order.
    public func publish(_ event: PublishedEvent) {
        let slow = state.withLockedValue { s -> [(Subscriber, Int)] in
            if let boot = s.boot, let seq = event.seq { s.last = EventPosition(boot: boot, seq: seq) }
            var slow: [(Subscriber, Int)] = []
            // The clients whose writers have nothing waiting, by their channels' loops: one hop per loop.
            var direct: [(loop: any EventLoop, clients: [Subscriber])] = []
            for i in s.clients.values.indices {
                switch s.clients.values[i].deliver(event) {
                case .done: break
                case .slow(let waiting): slow.append((s.clients.values[i].subscriber, waiting))
                case .direct:
                    let client = s.clients.values[i].subscriber, loop = client.channel.eventLoop
                    if let j = direct.firstIndex(where: { $0.loop === loop }) {
                        direct[j].clients.append(client)
                    } else {
                        direct.append((loop, [client]))
                    }
                }
            }
            guard !direct.isEmpty else { return slow }
            // One buffer for all. Handed to the loops under the lock: a WATCH changed after this event is answered
            // after its line (the answer's hop comes later, from its writer).
            var line = ByteBuffer()
            line.reserveCapacity(event.line.utf8.count + 1)
            line.writeString(event.line)
            line.writeInteger(UInt8(ascii: "\n"))
            for (loop, clients) in direct { loop.execute { [line] in for client in clients { client.writeLive(line) } } }
            return slow
        }
        for (client, waiting) in slow { client.slow(waiting) }
    }

    /// The numbering the published events carry: `events`' boot, and the position of the last event numbered
    /// before this daemon's first one, its journal's last (none when the journal is off or empty, or cannot be
    /// read: a client then holds no position until its first event). Set before the first publish.
    public func numbering(of events: EventLog) {
        var last: EventPosition?
        if case .success(let journal) = events.journal, let span = try? journal.span(), let boot = try? journal.boot(at: span.last) {
            last = EventPosition(boot: boot, seq: span.last)
        }
        state.withLockedValue { s in
            s.boot = events.boot
            s.last = last
        }
    }

    /// An event outside the daemon's numbering.
    public func publish(_ event: Event) { publish(PublishedEvent(event)) }
}
