import Foundation
import NIOCore
import ScandCore

/// Fans each event out to every subscriber. A subscriber that stops reading is disconnected once
/// `queueLimit` events wait for it (and counted), never waited on: capture and the other subscribers
/// do not notice it.
public final class EventHub: @unchecked Sendable {
    public struct Counters: Sendable, Equatable {
        public var connected = 0
        public var watching = 0
        /// Clients disconnected for falling behind.
        public var droppedSlow = 0
        /// Clients refused because `maxClients` were connected.
        public var refused = 0
        public var totalConnections = 0
    }

    let queueLimit: Int
    let maxClients: Int
    private let lock = NSLock()
    private var clients: [ObjectIdentifier: ClientHandler] = [:]
    private var _counters = Counters()

    public init(queueLimit: Int, maxClients: Int) {
        self.queueLimit = queueLimit
        self.maxClients = maxClients
    }

    public var counters: Counters {
        lock.lock()
        defer { lock.unlock() }
        var c = _counters
        c.connected = clients.count
        c.watching = clients.values.filter(\.isWatching).count
        return c
    }

    func admit(_ client: ClientHandler) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard clients.count < maxClients else {
            _counters.refused += 1
            return false
        }
        clients[ObjectIdentifier(client)] = client
        _counters.totalConnections += 1
        return true
    }

    func remove(_ client: ClientHandler) {
        lock.lock()
        clients.removeValue(forKey: ObjectIdentifier(client))
        lock.unlock()
    }

    func countSlowDrop() {
        lock.lock()
        _counters.droppedSlow += 1
        lock.unlock()
    }

    /// Sends one event line to every watching client whose filters accept it.
    public func publish(_ line: String) {
        let meta = EventMeta(line)
        lock.lock()
        let targets = Array(clients.values)
        lock.unlock()
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
