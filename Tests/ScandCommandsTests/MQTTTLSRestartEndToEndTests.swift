import Foundation
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

/// Issue 48, 1, as the adversarial run saw it: a TLS broker SIGKILLed and back 2 s later; OpenSSL's
/// "unexpected eof" ended libmosquitto's loop and `scand mqtt` delivered none of the next scans, alive.
@Suite(
    .serialized, .timeLimit(.minutes(3)),
    .enabled(if: MosquittoBroker.isInstalled && TestCertificates.opensslAvailable, "needs mosquitto and openssl"))
final class MQTTTLSRestartEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    func stateFileHolds(_ position: EventPosition) -> Bool {
        (try? String(contentsOfFile: dir + "/position.json", encoding: .utf8)) == position.json + "\n"
    }

    @Test func aTLSBrokerKilledAndBackGetsTheScansThatCameMeanwhile() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let broker = try MosquittoBroker(tls: .init(caFile: certs.caFile, certFile: certs.serverCert, keyFile: certs.serverKey))
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        let config = dir + "/scand.toml"
        try """
        [mqtt]
        host = "127.0.0.1"
        port = \(broker.port)
        kiosk_id = "till-1"
        ca_file = "\(certs.caFile)"
        cert_file = "\(certs.clientCert)"
        key_file = "\(certs.clientKey)"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        daemon.publish(3)
        let bridge = try SpawnedProcess(
            ScandBinary.path, ["mqtt", "--config", config, "--socket", daemon.path, "--state-file", dir + "/position.json"])
        defer { bridge.signal(SIGKILL); _ = bridge.finish() }
        #expect(bridge.wait(seconds: 60) { self.stateFileHolds(EventPosition(boot: daemon.boot, seq: 3)) }, "\(bridge.stderr.suffix(20))")
        broker.kill()
        daemon.publish(9)  // scanned while the broker is away
        #expect(bridge.wait(seconds: 30) { bridge.stderr.contains { $0.contains("broker connection lost") } }, "\(bridge.stderr.suffix(20))")
        try broker.start()
        let started = ContinuousClock.now
        #expect(bridge.wait(seconds: 60) { self.stateFileHolds(EventPosition(boot: daemon.boot, seq: 12)) }, "\(bridge.stderr.suffix(20))")
        print("TLS broker killed and back: the bridge's 9 scans acknowledged \(ContinuousClock.now - started) after the broker's start")
        #expect(bridge.isRunning)
    }
}
