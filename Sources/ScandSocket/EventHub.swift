import NIOCore
import ScandCore
import ScandProtocol
import NIOConcurrencyHelpers
import ScandEventLog

/// Fans each event out to every subscriber whose WATCH filters accept it, encoded once. A subscriber that
/// stops reading is disconnected (see `Subscriber`) and counted, never waited on: capture and the other
/// subscribers do not notice it. Admission is bounded twice: `maxClients` in all, `maxClientsPerUID` for one
/// user, so one broken application cannot take every slot.
///
/// It also knows where each subscriber stands in the daemon's numbering (`Subscriber.position`): the last
/// numbered event published before the subscriber was admitted, then each one delivered to it. A WATCH
/// without a `since` is answered with that position, so a client holds one from its first subscription.
public final class EventHub: Sendable {
    let queueLimit: Int
    let maxClients: Int
    let maxClientsPerUID: Int
    private struct State {
        var clients: [ObjectIdentifier: Subscriber] = [:]
        var perUID: [UInt32: Int] = [:]
        var counters = ClientCounters()
        /// The boot the events are numbered under (nil: the daemon numbers none), and the position of the
        /// last numbered event published (before the first: the journal's last event).
        var boot: String?
        var last: EventPosition?
    }
    private let state = NIOLockedValueBox(State())

    public init(queueLimit: Int, maxClients: Int, maxClientsPerUID: Int = .max) {
        self.queueLimit = queueLimit
        self.maxClients = maxClients
        self.maxClientsPerUID = maxClientsPerUID
    }

    public var counters: ClientCounters {
        let (counters, clients) = state.withLockedValue { s in
            var c = s.counters
            c.connected = s.clients.count
            return (c, Array(s.clients.values))
        }
        var out = counters
        out.watching = clients.filter(\.isWatching).count
        return out
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
            s.clients[ObjectIdentifier(client)] = client
            // Under the hub's lock: the next event published reaches this client (`publish`).
            client.start(after: s.last)
            s.counters.totalConnections += 1
            return nil
        }
    }

    func remove(_ client: Subscriber) {
        state.withLockedValue { s in
            guard let gone = s.clients.removeValue(forKey: ObjectIdentifier(client)), let uid = gone.uid else { return }
            s.perUID[uid] = s.perUID[uid, default: 1] > 1 ? s.perUID[uid]! - 1 : nil
        }
    }

    func countSlowDrop() { state.withLockedValue { $0.counters.droppedSlow += 1 } }

    func countTimeout() { state.withLockedValue { $0.counters.timedOut += 1 } }

    /// Sends an event to every subscriber that watches for it (or replays); from any thread. The daemon
    /// publishes one at a time from its `EventRuntime`'s loop, so numbered events arrive in seq order.
    public func publish(_ event: PublishedEvent) {
        let (targets, position) = state.withLockedValue { s in
            if let boot = s.boot, let seq = event.seq { s.last = EventPosition(boot: boot, seq: seq) }
            return (Array(s.clients.values), s.last)
        }
        for client in targets { client.deliver(event, position: event.seq == nil ? nil : position) }
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
