import Foundation
import ScandTestSupport
import Testing

@testable import ScandMQTT

/// Issue 48, 1: libmosquitto's loop thread ends for good on a protocol or TLS error, and the bridge never
/// connected again. The connection's own loop reconnects with its backoff whatever ended the link.
@Suite(.serialized)
struct MQTTConnectionLoopTests {
    func connection(port: Int, id: String, configure: (inout MQTTOptions) -> Void = { _ in }) throws -> (MQTTConnection, EventLog) {
        var options = MQTTOptions(host: "127.0.0.1", port: port, clientID: id)
        options.reconnectDelayMax = 2
        configure(&options)
        let log = EventLog()
        let c = try MQTTConnection(options) { log.append($0) }
        try c.start()
        return (c, log)
    }

    @Test func aMalformedPacketAfterCONNACKIsAConnectionLostAndTheNextOneIsMade() throws {
        let broker = try FakeMQTTBroker(acknowledges: true, dropAfter: nil)
        defer { broker.stop() }
        // UNSUBSCRIBE, which no broker sends: libmosquitto says "Unrecognised command 160" and its loop ended.
        broker.sendAfterConnack([0xA0, 0x00], times: 2)
        let (c, log) = try connection(port: broker.port, id: "malformed")
        defer { c.disconnect() }
        #expect(log.wait(seconds: 30) { $0.connections >= 3 }, "\(log.all)")
        let mid = try c.publish(topic: "t/after", payload: "after")
        #expect(log.wait { $0.delivered.contains(mid) }, "\(log.all)")
        #expect(broker.publishes.contains { $0.topic == "t/after" })
        #expect(log.problems.contains { $0.contains("connecting again, with backoff") }, "\(log.problems)")
    }

    @Test func aDisconnectWhileWaitingToReconnectEndsTheLoopAtOnce() throws {
        var options = MQTTOptions(host: "127.0.0.1", port: try MosquittoBroker.freePort(), clientID: "nobody")
        options.reconnectDelayMin = 30
        options.reconnectDelayMax = 30
        let log = EventLog()
        let c = try MQTTConnection(options) { log.append($0) }
        try c.start()
        let started = ContinuousClock.now
        c.disconnect()
        #expect(ContinuousClock.now - started < .seconds(5), "the 30 s wait between attempts held the stop")
    }

    /// The watchdog's view: a loop that does not turn for longer than its limit is stuck (here the limit is
    /// shorter than the loop's own 30 s wait between attempts, which the real limit covers).
    @Test func aLoopThatDoesNotTurnIsSeenStuck() throws {
        var options = MQTTOptions(host: "127.0.0.1", port: try MosquittoBroker.freePort(), clientID: "stuck")
        options.reconnectDelayMin = 30
        options.reconnectDelayMax = 30
        let log = EventLog()
        let c = try MQTTConnection(options) { log.append($0) }
        #expect(!c.loopIsStuck(limit: .zero), "not started")
        try c.start()
        #expect(Eventually.wait(seconds: 10) { c.loopIsStuck(limit: .milliseconds(300)) })
        #expect(!c.loopIsStuck() && c.stuckAfter == .seconds(120), "the real limit covers the wait between attempts")
        c.disconnect()
        #expect(!c.loopIsStuck(limit: .zero), "stopped")
    }
}

@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled && TestCertificates.opensslAvailable, "needs mosquitto and openssl"))
struct MQTTConnectionTLSLoopTests {
    /// The adversarial run's case: a TLS broker SIGKILLed and back; OpenSSL's "unexpected eof" ended
    /// libmosquitto's thread.
    @Test func aTLSBrokerKilledAndBackIsConnectedAgain() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let broker = try MosquittoBroker(tls: .init(caFile: certs.caFile, certFile: certs.serverCert, keyFile: certs.serverKey))
        var options = MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: "tls-killed")
        options.caFile = certs.caFile
        options.certFile = certs.clientCert
        options.keyFile = certs.clientKey
        options.reconnectDelayMax = 2
        let log = EventLog()
        let c = try MQTTConnection(options) { log.append($0) }
        defer { c.disconnect() }
        try c.start()
        #expect(log.wait { $0.connections == 1 }, "\(log.problems)")
        broker.kill()
        #expect(log.wait { $0.all.contains { if case .disconnected = $0 { true } else { false } } })
        try broker.start()
        #expect(log.wait(seconds: 30) { $0.connections == 2 }, "\(log.all)")
        let mid = try c.publish(topic: "t/tls", payload: "after the crash")
        #expect(log.wait { $0.delivered.contains(mid) }, "\(log.all)")
    }
}
