import Foundation
import ScandTestSupport
import ScandCore
import ScandMQTT
import ScandProtocol
import Testing

/// `scand mqtt` as a child process between a fake daemon (a real Unix socket peer serving numbered events)
/// and Debian's mosquitto on loopback, with `mosquitto_sub` holding a persistent session as the back office.
@Suite(
    .serialized,
    .enabled(
        if: MosquittoBroker.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub"),
        "needs Debian's mosquitto and mosquitto-clients"))
final class MQTTBridgeEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    var stateFile: String { dir + "/position.json" }
    /// The bridge's WATCH: the scans (`[mqtt] classes`' default), since `position` (live without).
    static func watch(since position: EventPosition? = nil) -> String {
        #"?WATCH={"enable":true,"classes":["SCAN"]"# + (position.map { #","since":\#($0.json)"# } ?? "") + "};"
    }
    static let fromJournalStart = watch(since: MQTTBridge.journalStart)

    func config(port: Int, kiosk: String = "till-1", start: String = "all", extra: String = "") throws -> String {
        let path = dir + "/scand.toml"
        try """
        [camera]
        device = "/dev/video0"
        [mqtt]
        host = "127.0.0.1"
        port = \(port)
        kiosk_id = "\(kiosk)"
        keepalive = 5
        start = "\(start)"
        \(extra)
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func stateFileHolds(_ position: EventPosition) -> Bool {
        (try? String(contentsOfFile: stateFile, encoding: .utf8)) == position.json + "\n"
    }

    /// `scand mqtt`, started as systemd would: nothing blocked, so SIGTERM reaches it.
    func bridge(_ config: String, socket: String) throws -> SpawnedProcess {
        try SpawnedProcess(ScandBinary.path, ["mqtt", "--config", config, "--socket", socket, "--state-file", stateFile])
    }

    /// The seqs of the SCAN messages the subscriber holds, each once, sorted.
    static func seqs(_ lines: [String], kiosk: String = "till-1") -> [Int] {
        let prefix = "scand/\(kiosk)/events/scan "
        return Set(lines.filter { $0.hasPrefix(prefix) }.compactMap { ReceivedEvent(reading: String($0.dropFirst(prefix.count)))?.position?.seq })
            .sorted()
    }

    func subscriber(_ broker: MosquittoBroker, _ id: String) throws -> MosquittoSubscriber {
        let s = try MosquittoSubscriber(port: broker.port, clientID: id, topic: "scand/#")
        #expect(s.awaitSubscribed(port: broker.port, probeTopic: "scand/probe"))
        return s
    }

    @Test func aBrokerStoppedAndStartedMidStreamLosesNothing() throws {
        let broker = try MosquittoBroker()
        let office = try subscriber(broker, "office-restart")
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        let bridge = try bridge(try config(port: broker.port), socket: daemon.path)
        defer { bridge.signal(SIGKILL); _ = bridge.finish() }
        #expect(bridge.wait { daemon.requests.count == 1 })
        #expect(daemon.requests.first == Self.fromJournalStart, "no state file yet: the whole journal")
        #expect(office.wait { $0.contains { $0.hasPrefix(#"scand/till-1/status {"state":"online","kiosk":"till-1""#) } })
        daemon.publish(20)
        #expect(office.wait { Self.seqs($0).count == 20 })
        broker.stop()
        daemon.publish(20)  // taken while the broker is away
        try broker.start()
        daemon.publish(10)
        #expect(office.wait { Self.seqs($0).count == 50 }, "\(Self.seqs(office.lines))\n\(bridge.stderr.joined(separator: "\n"))")
        #expect(Self.seqs(office.lines) == Array(1...50))
        // Every message is the daemon's line as it was published, with its boot and seq.
        #expect(office.lines.contains("scand/till-1/events/scan " + daemon.line(37)))
        #expect(
            bridge.wait { (try? String(contentsOfFile: self.stateFile, encoding: .utf8)) == EventPosition(boot: daemon.boot, seq: 50).json + "\n" })
        #expect(bridge.stderr.contains { $0.contains("broker connection lost") })
    }

    @Test func aBridgeKilledWithSIGKILLLeavesItsWillAndResumesFromItsStateFile() throws {
        let broker = try MosquittoBroker()
        let office = try subscriber(broker, "office-kill")
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        let configPath = try config(port: broker.port)
        let first = try bridge(configPath, socket: daemon.path)
        #expect(first.wait { daemon.requests.count == 1 })
        daemon.publish(10)
        #expect(office.wait { Self.seqs($0).count == 10 })
        let acknowledged = EventPosition(boot: daemon.boot, seq: 10).json + "\n"
        #expect(first.wait { (try? String(contentsOfFile: self.stateFile, encoding: .utf8)) == acknowledged })
        first.signal(SIGKILL)
        _ = first.finish()
        #expect(office.wait { $0.last == #"scand/till-1/status {"state":"offline","kiosk":"till-1"}"# }, "the broker published the last will")
        daemon.publish(5)  // while no bridge runs: only the daemon's journal has them
        let second = try bridge(configPath, socket: daemon.path)
        defer { second.signal(SIGTERM); _ = second.finish() }
        #expect(second.wait { daemon.requests.count == 2 })
        #expect(daemon.requests.last == Self.watch(since: EventPosition(boot: daemon.boot, seq: 10)))
        #expect(office.wait { Self.seqs($0).count == 15 })
        #expect(Self.seqs(office.lines) == Array(1...15))
    }

    @Test func aDaemonRestartIsFollowedBySinceAndAStopSaysOffline() throws {
        let broker = try MosquittoBroker()
        let office = try subscriber(broker, "office-daemon")
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        let bridge = try bridge(try config(port: broker.port), socket: daemon.path)
        #expect(bridge.wait { daemon.requests.count == 1 })
        daemon.publish(3)
        #expect(office.wait { Self.seqs($0).count == 3 })
        daemon.dropClient()
        daemon.publish(4)  // journaled by the daemon while the bridge reconnects
        #expect(bridge.wait { daemon.requests.count == 2 })
        #expect(daemon.requests.last == Self.watch(since: EventPosition(boot: daemon.boot, seq: 3)))
        #expect(office.wait { Self.seqs($0).count == 7 })
        bridge.signal(SIGTERM)
        #expect(bridge.finish() == 0)
        #expect(office.wait { $0.last == #"scand/till-1/status {"state":"offline","kiosk":"till-1"}"# })
    }

    @Test func aNewBridgePublishesWhatTheJournalKeepsThenGoesLive() throws {
        let broker = try MosquittoBroker()
        let office = try subscriber(broker, "office-new")
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        daemon.publish(12)  // before the bridge's first start
        let bridge = try bridge(try config(port: broker.port), socket: daemon.path)
        defer { bridge.signal(SIGTERM); _ = bridge.finish() }
        #expect(office.wait { Self.seqs($0).count == 12 }, "\(bridge.stderr)")
        daemon.publish(3)
        #expect(office.wait { Self.seqs($0).count == 15 })
        #expect(Self.seqs(office.lines) == Array(1...15))
        #expect(daemon.requests == [Self.fromJournalStart])
        #expect(bridge.stderr.contains { $0.contains("publishing everything the daemon's journal keeps, then live events") }, "\(bridge.stderr)")
        #expect(!bridge.stderr.contains { $0.contains(MQTTBridge.journalStart.boot) }, "no made-up boot in its words: \(bridge.stderr)")
        #expect(bridge.wait { self.stateFileHolds(EventPosition(boot: daemon.boot, seq: 15)) })
    }

    @Test func aBridgeStoppedBeforeItsFirstAcknowledgementBeginsThereAgain() throws {
        let broker = try MosquittoBroker()
        let office = try subscriber(broker, "office-unacknowledged")
        broker.stop()  // no CONNACK for the first bridge, ever
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        daemon.publish(10)
        // A window of 4: the bridge says when it has taken that many, which the socket's queue cannot tell
        // (bytes read by the client may not have reached the bridge yet).
        let configPath = try config(port: broker.port, extra: "max_in_flight = 4")
        let first = try bridge(configPath, socket: daemon.path)
        #expect(first.wait { self.stateFileHolds(MQTTBridge.journalStart) }, "written before anything else")
        #expect(first.wait { first.stderr.contains { $0.contains("4 events wait for the broker's acknowledgement") } }, "\(first.stderr)")
        first.signal(SIGTERM)
        #expect(first.finish() == 0)
        let stopped = "stopped; 4 events were not acknowledged: they come again with since next time"
        #expect(first.stderr.contains { $0.contains(stopped) }, "\(first.stderr)")
        try broker.start()
        let second = try bridge(configPath, socket: daemon.path)
        defer { second.signal(SIGTERM); _ = second.finish() }
        #expect(office.wait { Self.seqs($0).count == 10 }, "\(second.stderr)")
        #expect(daemon.requests == [Self.fromJournalStart, Self.fromJournalStart])
    }

    @Test func aBridgeStartedNowSkipsTheJournalAndResumesFromItsFirstEvent() throws {
        let broker = try MosquittoBroker()
        let office = try subscriber(broker, "office-now")
        broker.stop()
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        daemon.publish(5)  // from before the bridge: not wanted
        let configPath = try config(port: broker.port, start: "now")
        let first = try bridge(configPath, socket: daemon.path)
        #expect(first.wait { daemon.requests.count == 1 })
        #expect(daemon.requests.first == Self.watch())
        #expect(!FileManager.default.fileExists(atPath: stateFile))
        daemon.publish(20)
        #expect(first.wait { self.stateFileHolds(EventPosition(boot: daemon.boot, seq: 5)) }, "where it began, before any PUBACK")
        first.signal(SIGTERM)
        #expect(first.finish() == 0)
        try broker.start()
        let second = try bridge(configPath, socket: daemon.path)
        defer { second.signal(SIGTERM); _ = second.finish() }
        #expect(office.wait { Self.seqs($0).count == 20 }, "\(second.stderr)")
        #expect(Self.seqs(office.lines) == Array(6...25))
        #expect(daemon.requests.last == Self.watch(since: EventPosition(boot: daemon.boot, seq: 5)))
    }

    @Test(arguments: ["{\"boot\":\"12", "garbage\u{1B}[2J", ""])
    func aCorruptStateFileIsALoudErrorAndTheBridgeResumesFromTheOldestEvent(_ content: String) throws {
        try content.write(toFile: stateFile, atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker()
        let office = try subscriber(broker, "office-corrupt")
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        daemon.publish(8)
        let bridge = try bridge(try config(port: broker.port, start: "now"), socket: daemon.path)
        defer { bridge.signal(SIGTERM); _ = bridge.finish() }
        #expect(office.wait { Self.seqs($0).count == 8 }, "\(bridge.stderr)")
        let complaint = bridge.stderr.first { $0.contains("state file \(stateFile): not a position") }
        #expect(complaint?.contains("resuming from the oldest event the daemon's journal keeps") == true, "\(bridge.stderr)")
        #expect(!(complaint ?? "").contains("\u{1B}"), "escaped")
        #expect(bridge.wait { self.stateFileHolds(EventPosition(boot: daemon.boot, seq: 8)) })
    }

    @Test func anUnreadableStateFileIsNeverTakenForNone() throws {
        try FileManager.default.createDirectory(atPath: stateFile, withIntermediateDirectories: true)  // read() fails: EISDIR
        let daemon = try FakeDaemon(path: dir + "/scand.sock")
        let bridge = try bridge(try config(port: try MosquittoBroker.freePort(), start: "now"), socket: daemon.path)
        defer { bridge.signal(SIGTERM); _ = bridge.finish() }
        #expect(bridge.wait { daemon.requests.count == 1 })
        #expect(daemon.requests == [Self.fromJournalStart], "not live")
        #expect(bridge.stderr.contains { $0.contains("cannot read it") && $0.contains("resuming from the oldest event") }, "\(bridge.stderr)")
    }

    @Test func aDaemonWithoutNumberedEventsIsBridgedLiveWithAWarning() throws {
        let broker = try MosquittoBroker()
        let office = try subscriber(broker, "office-old")
        let daemon = try FakeDaemon(path: dir + "/scand.sock", numbered: false)
        let bridge = try bridge(try config(port: broker.port, kiosk: "old-till"), socket: daemon.path)
        defer { bridge.signal(SIGTERM); _ = bridge.finish() }
        #expect(bridge.wait { daemon.requests.count == 1 })
        daemon.publish(3)
        #expect(office.wait { $0.filter { $0.hasPrefix("scand/old-till/events/scan ") }.count == 3 })
        #expect(bridge.stderr.contains { $0.contains("carry no boot and seq") })
        #expect(try String(contentsOfFile: stateFile, encoding: .utf8) == MQTTBridge.journalStart.json + "\n", "nothing else to resume from")
    }

    @Test func aWrongConfigurationIsRefusedWithItsLine() throws {
        let path = dir + "/bad.toml"
        try "[mqtt]\nkiosk_id = \"a/b\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try ScandBinary.run(["mqtt", "--config", path, "--socket", dir + "/none.sock", "--state-file", stateFile])
        #expect(r.status == 78)
        #expect(r.stderr.contains("bad.toml: line 2: kiosk_id must be"))
        try "[mqtt]\nca_file = \"\(dir)/missing-ca.pem\"\nkiosk_id = \"k\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let tls = try ScandBinary.run(["mqtt", "--config", path, "--socket", dir + "/none.sock", "--state-file", stateFile])
        #expect(tls.status == 78)
        #expect(tls.stderr.contains("missing-ca.pem"), "\(tls.stderr)")
        // A wrong option is a usage error (64), as for every command, not a wrong file.
        for option in [["--port", "70000"], ["--kiosk-id", "a/b"]] {
            let usage = try ScandBinary.run(["mqtt", "--socket", dir + "/none.sock", "--state-file", stateFile] + option)
            #expect(usage.status == 64 && usage.stderr.contains(option[0] + ": must be"), "\(option): \(usage.status) \(usage.stderr)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func theUnitVerifiesAndIsHardened() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("systemd/scand-mqtt.service"), encoding: .utf8)
        #expect(text.contains("RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"))
        #expect(text.contains("StateDirectory=scand-mqtt"))
        let unit = dir + "/scand-mqtt.service"
        try text.replacingOccurrences(of: "/usr/local/bin/scand", with: ScandBinary.path).write(toFile: unit, atomically: true, encoding: .utf8)
        let verify = try UnitVerification.verify([unit])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(!verify.stderr.contains("scand-mqtt"), "\(verify.stderr)")
        let security = try ScandBinary.runTool("/usr/bin/systemd-analyze", ["security", "--offline=true", unit])
        let line = try #require(security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = Double(line.split(separator: ":").last?.split(separator: " ").first ?? "") ?? 99
        #expect(score <= 2.0, "\(line)")
    }
}
