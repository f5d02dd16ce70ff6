/// How to reach the broker and who to be there.
public struct MQTTOptions: Sendable, Equatable {
    public struct Will: Sendable, Equatable {
        public var topic: String
        public var payload: String
        public var retain: Bool

        public init(topic: String, payload: String, retain: Bool = true) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
        }
    }

    public var host: String
    public var port: Int
    public var clientID: String
    /// false: the broker keeps the session (and libmosquitto's unacknowledged messages are sent again)
    /// across reconnections.
    public var cleanSession = false
    public var keepalive = 30
    public var username: String?
    public var password: String?
    /// TLS when set: the CA that signed the broker's certificate (its name is checked too).
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    /// Published by the broker when the connection is lost without a DISCONNECT.
    public var will: Will?
    /// QoS 1 messages sent and awaiting their PUBACK at once; later ones wait in libmosquitto's queue.
    public var maxInFlight = 20
    /// Seconds between reconnection attempts: doubling from the first to the second.
    public var reconnectDelayMin = 1
    public var reconnectDelayMax = 30

    public init(host: String, port: Int, clientID: String) {
        self.host = host
        self.port = port
        self.clientID = clientID
    }
}

/// What the connection reports, from libmosquitto's own thread.
public enum MQTTEvent: Sendable, Equatable {
    /// Connected (again): the broker accepted the CONNECT.
    case connected
    /// The broker refused the CONNECT (bad credentials, …); libmosquitto keeps trying.
    case refused(String)
    /// The connection was lost (or closed by `disconnect`).
    case disconnected(String)
    /// The broker acknowledged this QoS 1 message (PUBACK).
    case delivered(mid: Int32)
    /// An error or warning libmosquitto logged (a TLS failure says why here, and nowhere else).
    case problem(String)
}

public struct MQTTError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
