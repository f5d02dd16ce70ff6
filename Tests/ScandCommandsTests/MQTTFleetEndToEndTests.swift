import Foundation
import ScandClient
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

/// The real daemon, `scand mqtt` and Debian's mosquitto together: a till's scans reach the back office
/// through a broker restart, a bridge killed with SIGKILL and a daemon restart; three kiosks share a broker.
@Suite(
    .serialized,
    .enabled(
        if: MosquittoBroker.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub"),
        "needs Debian's mosquitto and mosquitto-clients"))
final class MQTTFleetEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    struct Kiosk {
        let id: String
        let socket: String
        let state: String
        let config: String
        let stateFile: String

        func daemon(_ source: [String]) throws -> DaemonProcess {
            try DaemonProcess(["run", "--socket", socket, "--state-directory", state, "--lost-after", "0.1"] + source)
        }

        func bridge() throws -> SpawnedProcess {
            try SpawnedProcess(ScandBinary.path, ["mqtt", "--config", config, "--socket", socket, "--state-file", stateFile])
        }
    }

    func kiosk(_ id: String, port: Int, start: String = "all") throws -> Kiosk {
        let k = Kiosk(
            id: id, socket: dir + "/\(id).sock", state: dir + "/\(id)-state", config: dir + "/\(id).toml", stateFile: dir + "/\(id)-position.json")
        try FileManager.default.createDirectory(atPath: k.state, withIntermediateDirectories: true)
        try "[mqtt]\nhost = \"127.0.0.1\"\nport = \(port)\nkiosk_id = \"\(id)\"\nkeepalive = 5\nstart = \"\(start)\"\n".write(
            toFile: k.config, atomically: true, encoding: .utf8)
        return k
    }

    /// The (boot, seq) of the SCAN messages under a kiosk's topic.
    static func scanPositions(_ lines: [String], kiosk: String) -> Set<EventPosition> {
        let prefix = "scand/\(kiosk)/events/scan "
        return Set(lines.filter { $0.hasPrefix(prefix) }.compactMap { ReceivedEvent(reading: String($0.dropFirst(prefix.count)))?.position })
    }

    static func published(_ daemon: DaemonProcess) -> Set<EventPosition> { Set(FleetRecordings.positions(FleetRecordings.scans(daemon.stdout))) }

    @Test func everyScanReachesTheBrokerThroughOutagesKillsAndRestarts() throws {
        let broker = try MosquittoBroker()
        let office = try MosquittoSubscriber(port: broker.port, clientID: "office-fleet", topic: "scand/#")
        #expect(office.awaitSubscribed(port: broker.port, probeTopic: "scand/probe"))
        let till = try kiosk("till-7", port: broker.port)
        let recording = try FleetRecordings.till(tickets: 30, leadIn: 1, to: dir + "/till.rec")
        // No state file: the bridge publishes everything the journal keeps, however late it subscribes.
        var bridge = try till.bridge()
        defer { bridge.signal(SIGKILL); _ = bridge.finish() }
        let first = try till.daemon(["--replay-pace", "recorded", "--source", "replay:" + recording])
        func held() -> Set<EventPosition> { Self.scanPositions(office.lines, kiosk: till.id) }

        #expect(office.wait { _ in held().count >= 4 }, "\(bridge.stderr)")
        broker.stop()
        // Scans go on meanwhile: the daemon journals them, the bridge holds its window.
        func scanned() -> Int { FleetRecordings.scans(first.stdout).count }
        let beforeOutage = scanned()
        #expect(first.wait { scanned() >= beforeOutage + 3 }, "\(first.stderr)")
        try broker.start()
        #expect(office.wait { _ in held().count >= 10 }, "\(bridge.stderr)")
        bridge.signal(SIGKILL)
        _ = bridge.finish()
        let beforeRestart = scanned()
        #expect(first.wait { scanned() >= beforeRestart + 2 }, "scans while no bridge runs: \(first.stderr)")
        bridge = try till.bridge()
        #expect(office.wait { _ in held().count >= 14 }, "\(bridge.stderr)")
        first.signal(SIGTERM)
        #expect(first.finish() == 0)
        // The same till comes back and runs through its tickets again, under a new boot. In lockstep: every frame
        // decoded, so every ticket is scanned however busy the machine (at the recorded pace a debug daemon beside
        // a full test run dropped the frames of one ticket of 30, each shown 8 frames).
        let second = try till.daemon(["--replay-pace", "lockstep", "--source", "replay:" + recording])
        #expect(second.finish(seconds: 60) == 0)
        // A third start with no camera serves the journal's tail to the bridge.
        let third = try till.daemon(["--device", dir + "/no-camera"])
        #expect(third.wait { FileManager.default.fileExists(atPath: till.socket) })
        let expected = Self.published(first).union(Self.published(second))
        #expect(
            Self.published(first).count >= 14 && Self.published(second).count == 30, "\(Self.published(first).count) \(Self.published(second).count)")
        #expect(
            office.wait(seconds: 60) { _ in held().isSuperset(of: expected) },
            "missing \(expected.subtracting(held()).sorted { $0.seq < $1.seq })\n\(bridge.stderr.suffix(20).joined(separator: "\n"))")
        let seqs = expected.map(\.seq).sorted()
        #expect(seqs == Array(seqs[0]...seqs[seqs.count - 1]).filter { s in expected.contains { $0.seq == s } }, "distinct seqs")
        #expect(Set(expected.map(\.boot)).count == 2)
        third.signal(SIGTERM)
        #expect(third.finish() == 0)
    }

    /// A bridge started `now` that has received no event holds where its subscription started (the daemon's
    /// answer to its WATCH) in its state file: stopped while the daemon stops and another scans with no socket
    /// open, then started again, it publishes those scans, each once. It wrote nothing, started live again
    /// and lost them.
    @Test func aBridgeStartedNowResumesWhereItsFirstSubscriptionStarted() throws {
        let broker = try MosquittoBroker()
        let office = try MosquittoSubscriber(port: broker.port, clientID: "office-first", topic: "scand/#")
        #expect(office.awaitSubscribed(port: broker.port, probeTopic: "scand/probe"))
        let till = try kiosk("till-8", port: broker.port, start: "now")
        let quiet = try till.daemon(["--device", dir + "/no-camera"])
        #expect(quiet.wait { FileManager.default.fileExists(atPath: till.socket) })
        #expect(quiet.wait { !FleetRecordings.positions(quiet.stdout).isEmpty }, "a numbered event: the journal is not empty")
        let first = try till.bridge()
        func saved() -> EventPosition? { (try? PositionFile.read(till.stateFile)) ?? nil }
        #expect(first.wait { saved() != nil }, "the position the subscription started after, before any event: \(first.stderr)")
        first.signal(SIGTERM)
        #expect(first.finish() == 0)
        quiet.signal(SIGTERM)
        #expect(quiet.finish() == 0)
        // Scans with no socket to connect to: the bridge can only get them from the journal.
        let recording = try FleetRecordings.till(tickets: 3, leadIn: 1, to: dir + "/first.rec")
        let scanning = try till.daemon(["--replay-pace", "lockstep", "--source", "replay:" + recording])
        #expect(scanning.finish(seconds: 60) == 0)
        let missed = Self.published(scanning)
        #expect(missed.count == 3, "\(scanning.stdout)")
        let idle = try till.daemon(["--device", dir + "/no-camera"])
        #expect(idle.wait { FileManager.default.fileExists(atPath: till.socket) })
        let second = try till.bridge()
        defer { second.signal(SIGTERM); _ = second.finish() }
        func scanLines() -> [String] { office.lines.filter { $0.hasPrefix("scand/\(till.id)/events/scan ") } }
        #expect(office.wait { _ in scanLines().count >= missed.count }, "\(second.stderr)")
        #expect(Self.scanPositions(office.lines, kiosk: till.id) == missed && scanLines().count == missed.count, "each once: \(scanLines())")
        idle.signal(SIGTERM)
        #expect(idle.finish() == 0)
    }

    @Test func threeKiosksIntoOneBrokerEachUnderItsOwnTopics() throws {
        let broker = try MosquittoBroker()
        let office = try MosquittoSubscriber(port: broker.port, clientID: "office-three", topic: "scand/#")
        #expect(office.awaitSubscribed(port: broker.port, probeTopic: "scand/probe"))
        let recording = try FleetRecordings.till(tickets: 5, leadIn: 1, to: dir + "/three.rec")
        let kiosks = try ["north", "south", "west"].map { try kiosk($0, port: broker.port) }
        let bridges = try kiosks.map { try $0.bridge() }
        defer { for b in bridges { b.signal(SIGTERM); _ = b.finish() } }
        // In lockstep: three debug daemons at the recorded pace on two busy cores dropped whole tickets.
        let daemons = try kiosks.map { try $0.daemon(["--replay-pace", "lockstep", "--source", "replay:" + recording]) }
        for d in daemons { #expect(d.finish(seconds: 60) == 0) }
        for (k, d) in zip(kiosks, daemons) {
            let published = Self.published(d)
            #expect(published.count == 5)
            #expect(office.wait { Self.scanPositions($0, kiosk: k.id).isSuperset(of: published) }, "\(k.id): \(office.lines.suffix(10))")
            #expect(office.lines.contains { $0.hasPrefix(#"scand/\#(k.id)/status {"state":"online","kiosk":"\#(k.id)""#) })
        }
        let boots = Set(daemons.flatMap { Self.published($0).map(\.boot) })
        #expect(boots.count == 3, "each daemon its own boot")
    }
}
