import Foundation
import ScandTestSupport
import NIOConcurrencyHelpers
import Testing
@testable import ScandMQTT

/// What a connection reported, for a test to wait on.
final class EventLog: Sendable {
    private let events = NIOLockedValueBox<[MQTTEvent]>([])
    var all: [MQTTEvent] { events.withLockedValue { $0 } }
    func append(_ e: MQTTEvent) { events.withLockedValue { $0.append(e) } }

    var delivered: Set<Int32> { Set(all.compactMap { if case .delivered(let mid) = $0 { mid } else { nil } }) }
    var connections: Int { all.filter { $0 == .connected }.count }
    var problems: [String] { all.compactMap { if case .problem(let p) = $0 { p } else { nil } } }

    @discardableResult
    func wait(seconds: Double = 30, until condition: (EventLog) -> Bool) -> Bool {
        Eventually.wait(seconds: seconds) { condition(self) }
    }
}

@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, "needs Debian's mosquitto"))
struct MQTTConnectionTests {
    func connection(_ options: MQTTOptions) throws -> (MQTTConnection, EventLog) {
        let log = EventLog()
        let c = try MQTTConnection(options) { log.append($0) }
        return (c, log)
    }

    @Test func publishesAtQoS1AndReportsEachPUBACK() throws {
        let broker = try MosquittoBroker()
        let subscriber = try MosquittoSubscriber(port: broker.port, clientID: "qos1-sub", topic: "t/#")
        #expect(subscriber.awaitSubscribed(port: broker.port, probeTopic: "t/probe"))
        let (c, log) = try connection(MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: "qos1-pub"))
        try c.start()
        #expect(log.wait { $0.connections == 1 })
        var mids: Set<Int32> = []
        for i in 1...20 { mids.insert(try c.publish(topic: "t/n", payload: "message \(i)")) }
        #expect(mids.count == 20)
        #expect(log.wait { mids.isSubset(of: $0.delivered) })
        #expect(subscriber.wait { $0.filter { $0.hasPrefix("t/n ") }.count == 20 })
        #expect(subscriber.lines.filter { $0.hasPrefix("t/n ") } == (1...20).map { "t/n message \($0)" })
        c.disconnect()
        #expect(log.wait { $0.all.contains(.disconnected("disconnected")) })
    }

    @Test func aLostBrokerIsReconnectedByItselfAndWhatWasPublishedMeanwhileIsSentThen() throws {
        let broker = try MosquittoBroker()
        let subscriber = try MosquittoSubscriber(port: broker.port, clientID: "restart-sub", topic: "t/#")
        #expect(subscriber.awaitSubscribed(port: broker.port, probeTopic: "t/probe"))
        var options = MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: "restart-pub")
        options.reconnectDelayMax = 2
        let (c, log) = try connection(options)
        try c.start()
        #expect(log.wait { $0.connections == 1 })
        broker.stop()
        #expect(log.wait { $0.all.contains { if case .disconnected = $0 { true } else { false } } })
        // libmosquitto 2.0.11 answers MOSQ_ERR_NO_CONN but has queued the message: it is taken, and sent
        // once the broker is back (so the bridge must not publish it again).
        let during = try c.publish(topic: "t/n", payload: "during")
        try broker.start()
        #expect(log.wait { $0.connections == 2 })
        #expect(log.wait { $0.delivered.contains(during) })
        let after = try c.publish(topic: "t/n", payload: "after")
        #expect(log.wait { $0.delivered.contains(after) })
        #expect(subscriber.wait { $0.filter { $0.hasPrefix("t/n ") }.count == 2 })
        #expect(subscriber.lines.filter { $0.hasPrefix("t/n ") } == ["t/n during", "t/n after"], "once each")
        c.disconnect()
    }

    @Test func aRefusedConnectionSaysWhy() throws {
        let broker = try MosquittoBroker()
        // An MQTT client id may be at most 65535 bytes; mosquitto 2 refuses an empty one with a clean session off.
        var options = MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: "")
        options.cleanSession = false
        #expect(throws: MQTTError.self) { try MQTTConnection(options) { _ in } }
        let (c, log) = try connection(MQTTOptions(host: "127.0.0.1", port: try MosquittoBroker.freePort(), clientID: "nobody-there"))
        try c.start()
        #expect(log.wait { !$0.problems.isEmpty || $0.all.contains { if case .disconnected = $0 { true } else { false } } })
        #expect(log.connections == 0)
    }

    /// At boot the bridge may start before DNS answers: a name that does not resolve is a problem the loop
    /// tries again, never the configuration error that would keep the service stopped.
    @Test func aBrokerNameThatDoesNotResolveIsTriedAgainNotRefused() throws {
        var options = MQTTOptions(host: "no-such-broker.invalid", port: 1883, clientID: "unresolved")
        options.reconnectDelayMax = 1
        let (c, log) = try connection(options)
        try c.start()
        #expect(log.wait(seconds: 10) { $0.problems.contains { $0.contains("no-such-broker.invalid:1883") } }, "\(log.all)")
        #expect(log.connections == 0)
        c.disconnect()
    }
}

@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled && TestCertificates.opensslAvailable, "needs mosquitto and openssl"))
struct MQTTConnectionTLSTests {
    /// A broker that wants TLS and a client certificate from the test CA, and a client trusting `ca`.
    func tlsClient(
        _ certs: TestCertificates, id: String, ca: String, clientCertificate: Bool = true
    ) throws -> (MosquittoBroker, MQTTConnection, EventLog) {
        let broker = try MosquittoBroker(tls: .init(caFile: certs.caFile, certFile: certs.serverCert, keyFile: certs.serverKey))
        var options = MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: id)
        options.caFile = ca
        if clientCertificate {
            options.certFile = certs.clientCert
            options.keyFile = certs.clientKey
        }
        let log = EventLog()
        let c = try MQTTConnection(options) { log.append($0) }
        try c.start()
        return (broker, c, log)
    }

    @Test func aClientCertificateSignedByTheCAConnectsAndPublishes() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let (broker, c, log) = try tlsClient(certs, id: "tls-ok", ca: certs.caFile)
        defer { withExtendedLifetime(broker) {} }
        #expect(log.wait { $0.connections == 1 }, "\(log.problems)")
        let mid = try c.publish(topic: "t/tls", payload: "over TLS")
        #expect(log.wait { $0.delivered.contains(mid) })
        c.disconnect()
    }

    @Test func aBrokerCertificateFromAnotherCAIsRefusedWithAClearError() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let (broker, c, log) = try tlsClient(certs, id: "tls-wrong-ca", ca: certs.otherCAFile)
        defer { withExtendedLifetime(broker) {} }
        #expect(log.wait { $0.problems.contains { $0.contains("certificate verify failed") } }, "\(log.all)")
        #expect(log.connections == 0)
    }

    @Test func withoutAClientCertificateTheBrokerRefuses() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let (broker, c, log) = try tlsClient(certs, id: "tls-no-cert", ca: certs.caFile, clientCertificate: false)
        defer { withExtendedLifetime(broker) {} }
        #expect(log.wait { !$0.problems.isEmpty || $0.all.contains { if case .disconnected = $0 { true } else { false } } }, "\(log.all)")
        #expect(log.connections == 0)
    }

    @Test func aMissingCAFileIsRefusedAtOnce() {
        var options = MQTTOptions(host: "127.0.0.1", port: 8883, clientID: "tls-missing")
        options.caFile = "/nonexistent/ca.pem"
        #expect { try MQTTConnection(options) { _ in } } throws: { e in
            (e as! MQTTError).description.contains("ca_file /nonexistent/ca.pem")
        }
    }
}
