import Foundation
import NIOCore
import ScandCore
import Synchronization

/// Fans each event out to every subscriber. A subscriber that stops reading is disconnected once
/// `queueLimit` lines (events and replies alike) wait for it, and counted, never waited on: capture and the
/// other subscribers do not notice it. Admission is bounded twice: `maxClients` in all, `maxClientsPerUID`
/// for one user, so one broken application cannot take every slot.
public final class EventHub: Sendable {
    public struct Counters: Sendable, Equatable {
        public var connected = 0
        public var watching = 0
        /// Clients disconnected for falling behind.
        public var droppedSlow = 0
        /// Clients refused because `maxClients` were connected, or `maxClientsPerUID` of the same user.
        public var refused = 0
        /// Clients closed because they sent no request within the request timeout.
        public var timedOut = 0
        public var totalConnections = 0
    }

    let queueLimit: Int
    let maxClients: Int
    let maxClientsPerUID: Int
    private struct State {
        var clients: [ObjectIdentifier: (handler: ClientHandler, uid: UInt32?)] = [:]
        var perUID: [UInt32: Int] = [:]
        var counters = Counters()
    }
    private let state = Mutex(State())

    public init(queueLimit: Int, maxClients: Int, maxClientsPerUID: Int = .max) {
        self.queueLimit = queueLimit
        self.maxClients = maxClients
        self.maxClientsPerUID = maxClientsPerUID
    }

    public var counters: Counters {
        let (c, handlers) = state.withLock { s in
            var c = s.counters
            c.connected = s.clients.count
            return (c, s.clients.values.map(\.handler))
        }
        var out = c
        out.watching = handlers.filter(\.isWatching).count
        return out
    }

    /// Admits a client of user `uid` (nil: unknown), or says why not.
    func admit(_ client: ClientHandler, uid: UInt32?) -> String? {
        state.withLock { s in
            guard s.clients.count < maxClients else {
                s.counters.refused += 1
                return "too many clients (\(maxClients)); try again later"
            }
            if let uid {
                guard s.perUID[uid, default: 0] < maxClientsPerUID else {
                    s.counters.refused += 1
                    return "too many connections from uid \(uid) (\(maxClientsPerUID)); close some and try again"
                }
                s.perUID[uid, default: 0] += 1
            }
            s.clients[ObjectIdentifier(client)] = (client, uid)
            s.counters.totalConnections += 1
            return nil
        }
    }

    func remove(_ client: ClientHandler) {
        state.withLock { s in
            guard let gone = s.clients.removeValue(forKey: ObjectIdentifier(client)), let uid = gone.uid else { return }
            s.perUID[uid] = s.perUID[uid, default: 1] > 1 ? s.perUID[uid]! - 1 : nil
        }
    }

    func countSlowDrop() { state.withLock { $0.counters.droppedSlow += 1 } }

    func countTimeout() { state.withLock { $0.counters.timedOut += 1 } }

    /// Sends one event line to every watching client whose filters accept it.
    public func publish(_ line: String) {
        let meta = EventMeta(line)
        let targets = state.withLock { $0.clients.values.map(\.handler) }
        for client in targets { client.deliver(line, meta) }
    }
}

/// What the filters of a WATCH look at: the class and format of an event, read from its first fields.
struct EventMeta: Sendable {
    var className: String
    var format: BarcodeFormat?

    init(_ line: String) {
        className = EventMeta.field(line, "class") ?? ""
        format = EventMeta.field(line, "format").flatMap { BarcodeFormat(name: $0) }
    }

    /// The string value of a top-level key written by JSONValue (keys appear before nested objects).
    static func field(_ line: String, _ key: String) -> String? {
        guard let r = line.range(of: "\"\(key)\":\"") else { return nil }
        return String(line[r.upperBound...].prefix { $0 != "\"" })
    }
}
