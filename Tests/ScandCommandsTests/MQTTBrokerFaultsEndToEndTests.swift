import Foundation
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

/// `scand mqtt` against a broker that accepts CONNECT but never acknowledges a PUBLISH and drops the link
/// soon after every CONNACK (issue 25.5): libmosquitto alone sends again what is unacknowledged, so a
/// reconnection repeats at most the in-flight window, and what the bridge and libmosquitto hold stays one
/// window however many reconnections there are.
@Suite(.serialized)
final class MQTTBrokerFaultsEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    static let window = 100

    /// The seq of an event PUBLISH (nil for the status).
    static func seq(_ p: FakeMQTTBroker.Publish) -> Int? {
        p.topic == "scand/till-1/events/scan" ? ReceivedEvent(reading: p.payload)?.position?.seq : nil
    }

    static func residentKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test(.timeLimit(.minutes(10)))
    func aBrokerThatNeverAcknowledgesAndDropsTheLinkCostsOneWindowAcrossFiftyReconnections() throws {
        let broker = try FakeMQTTBroker(acknowledges: false, dropAfter: 0.3)
        defer { broker.stop() }
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        let config = dir + "/scand.toml"
        try """
        [mqtt]
        host = "127.0.0.1"
        port = \(broker.port)
        kiosk_id = "till-1"
        keepalive = 5
        max_in_flight = \(Self.window)
        """.write(toFile: config, atomically: true, encoding: .utf8)
        daemon.publish(150)  // journaled before the bridge starts: a new bridge publishes them all
        let bridge = try SpawnedProcess(
            ScandBinary.path, ["mqtt", "--config", config, "--socket", daemon.path, "--state-file", dir + "/position.json"])
        defer { bridge.signal(SIGKILL); _ = bridge.finish() }

        #expect(bridge.wait(seconds: 60) { broker.connections >= 10 }, "\(bridge.stderr)")
        let early = Self.residentKiB(bridge.pid)
        #expect(bridge.wait(seconds: 300) { broker.connections >= 55 }, "\(broker.connections) connections\n\(bridge.stderr.suffix(20))")
        let late = Self.residentKiB(bridge.pid)
        print("never-acknowledging broker: bridge RSS \(early) KiB after 10 connections, \(late) KiB after \(broker.connections)")
        let unacknowledged = broker.publishes
        // Each link carries at most the window (and the online status once), never an event twice; nothing
        // beyond the window was ever taken from the daemon.
        for (connection, publishes) in Dictionary(grouping: unacknowledged, by: \.connection) {
            let seqs = publishes.compactMap(Self.seq)
            #expect(seqs.count <= Self.window && Set(seqs).count == seqs.count, "connection \(connection): \(seqs.count) PUBLISHes")
            #expect(publishes.count - seqs.count <= 1, "connection \(connection): the status more than once")
        }
        // libmosquitto's in-flight slots are the window, and the unacknowledged online status holds one of them.
        let sent = Set(unacknowledged.compactMap(Self.seq))
        #expect(sent.isSubset(of: 1...Self.window) && sent.count >= Self.window - 1, "\(sent.sorted())")

        // The broker comes to its senses: one more reconnection, then every event once, and the repeats are
        // at most the window libmosquitto held (before the fix: the window again for every reconnection).
        let before = unacknowledged.count
        broker.behave(acknowledges: true, dropAfter: nil)
        broker.dropConnection()
        #expect(bridge.wait(seconds: 120) { Set(broker.publishes.compactMap(Self.seq)).isSuperset(of: 1...150) }, "\(bridge.stderr.suffix(20))")
        #expect(
            bridge.wait(seconds: 30) {
                (try? String(contentsOfFile: self.dir + "/position.json", encoding: .utf8)) == EventPosition(boot: daemon.boot, seq: 150).json + "\n"
            })
        let acknowledged = broker.publishes.dropFirst(before).compactMap(Self.seq)
        print("then acknowledging: \(acknowledged.count) event PUBLISHes for 150 events")
        #expect(acknowledged.count - 150 <= Self.window, "\(acknowledged.count) PUBLISHes for 150 events")
        #expect(Dictionary(grouping: acknowledged, by: { $0 }).values.allSatisfy { $0.count <= 2 })
    }

    /// Issue 48, 1: a broker that sends two bytes no broker sends (`A0 00`) after CONNACK ended libmosquitto's
    /// thread, and the bridge published nothing more, alive, so systemd never restarted it.
    @Test(.timeLimit(.minutes(3)))
    func aMalformedPacketFromTheBrokerIsALostConnectionNotTheEndOfTheBridge() throws {
        let broker = try FakeMQTTBroker(acknowledges: true, dropAfter: nil)
        defer { broker.stop() }
        broker.sendAfterConnack([0xA0, 0x00])
        let daemon = try FakeDaemon(path: dir + "/malformed.sock")
        let config = dir + "/malformed.toml"
        try """
        [mqtt]
        host = "127.0.0.1"
        port = \(broker.port)
        kiosk_id = "till-1"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        daemon.publish(10)
        let bridge = try SpawnedProcess(
            ScandBinary.path, ["mqtt", "--config", config, "--socket", daemon.path, "--state-file", dir + "/malformed.json"])
        defer { bridge.signal(SIGKILL); _ = bridge.finish() }
        #expect(bridge.wait(seconds: 60) { Set(broker.publishes.compactMap(Self.seq)).isSuperset(of: 1...10) }, "\(bridge.stderr.suffix(20))")
        #expect(broker.connections >= 2 && bridge.stderr.contains { $0.contains("connecting again, with backoff") }, "\(bridge.stderr.suffix(20))")
        daemon.publish(5)
        #expect(bridge.wait(seconds: 30) { Set(broker.publishes.compactMap(Self.seq)).isSuperset(of: 1...15) }, "\(bridge.stderr.suffix(20))")
    }
}
