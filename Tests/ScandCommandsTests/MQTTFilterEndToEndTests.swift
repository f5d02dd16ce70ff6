import Foundation
import ScandClient
import ScandCore
import ScandMQTT
import ScandProtocol
import ScandTestSupport
import Testing

/// `[mqtt] classes`, `formats` and `topic_prefix` with the real daemon and Debian's mosquitto: a till's
/// journal (SCANs, LOSTs, DEVICE, STATS) published by three bridges, each as its settings say; and the
/// state file of a bridge run by hand by a user who is not root.
@Suite(
    .serialized,
    .enabled(
        if: MosquittoBroker.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub"),
        "needs Debian's mosquitto and mosquitto-clients"))
final class MQTTFilterEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    var socket: String { dir + "/scand.sock" }

    func bridge(_ id: String, port: Int, _ settings: String = "") throws -> SpawnedProcess {
        let config = dir + "/\(id).toml"
        try "[mqtt]\nhost = \"127.0.0.1\"\nport = \(port)\nkiosk_id = \"\(id)\"\nkeepalive = 5\n\(settings)\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        return try SpawnedProcess(ScandBinary.path, ["mqtt", "--config", config, "--socket", socket, "--state-file", dir + "/\(id)-position.json"])
    }

    /// The classes each topic under `<prefix>/<kiosk>/events/` got, by the message's own class.
    static func classes(_ lines: [String], under prefix: String) -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        for line in lines where line.hasPrefix(prefix + "/events/") {
            let rest = line.dropFirst(prefix.count + "/events/".count)
            let topic = String(rest.prefix { $0 != " " })
            found[topic, default: []].insert(ReceivedEvent(reading: String(rest.drop { $0 != " " }.dropFirst()))?.eventClass.rawValue ?? "?")
        }
        return found
    }

    /// By default only the scans reach the broker (UPDATE, LOST and STATS, which every bridge published,
    /// stay in the daemon); `classes = ["SCAN", "LOST"]` publishes both; `topic_prefix` heads every topic.
    @Test func theBrokerGetsTheClassesAskedForUnderThePrefix() throws {
        let state = dir + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        func daemon(_ source: [String]) throws -> DaemonProcess {
            try DaemonProcess(["run", "--socket", socket, "--state-directory", state, "--lost-after", "0.1"] + source)
        }
        // The till's events, journaled before any bridge subscribes: each replays them in full, the same.
        let recording = try FleetRecordings.till(tickets: 3, leadIn: 1, to: dir + "/till.rec")
        let till = try daemon(["--replay-pace", "recorded", "--source", "replay:" + recording])
        #expect(till.finish(seconds: 60) == 0)
        let journaled = Set(till.stdout.compactMap { ReceivedEvent(reading: $0) }.filter { $0.position != nil }.map(\.eventClass.rawValue))
        #expect(journaled.isSuperset(of: ["SCAN", "LOST", "STATS"]), "\(till.stdout)")
        let scans = Set(FleetRecordings.positions(FleetRecordings.scans(till.stdout)))
        #expect(scans.count == 3)
        let lastSeq = FleetRecordings.positions(till.stdout).map(\.seq).max() ?? 0

        let broker = try MosquittoBroker()
        let office = try MosquittoSubscriber(port: broker.port, clientID: "office-filter", topic: "#")
        #expect(office.awaitSubscribed(port: broker.port, probeTopic: "probe"))
        let idle = try daemon(["--device", dir + "/no-camera"])
        defer { idle.signal(SIGTERM); _ = idle.finish() }
        #expect(idle.wait { FileManager.default.fileExists(atPath: self.socket) })
        let plain = try bridge("plain", port: broker.port)
        let lost = try bridge("lost", port: broker.port, #"classes = ["SCAN", "LOST"]"#)
        let all = try bridge("all", port: broker.port, "classes = [\"all\"]\ntopic_prefix = \"site/berlin/scand/\"")
        defer { for b in [plain, lost, all] { b.signal(SIGTERM); _ = b.finish() } }

        // Every class, in the journal's order: once the last event of the till is there, all of it is.
        #expect(
            office.wait { lines in
                lines.contains {
                    $0.hasPrefix("site/berlin/scand/all/events/")
                        && ReceivedEvent(reading: String($0.drop { $0 != " " }.dropFirst()))?.position?.seq == lastSeq
                }
            },
            "\(all.stderr)")
        let everything = Self.classes(office.lines, under: "site/berlin/scand/all")
        #expect(
            Set(everything.keys).isSuperset(of: ["scan", "lost", "stats"]) && everything.allSatisfy { $0.value == [$0.key.uppercased()] },
            "\(everything)")
        #expect(office.lines.contains { $0.hasPrefix(#"site/berlin/scand/all/status {"state":"online","kiosk":"all""#) })

        func scanned(_ kiosk: String) -> Set<EventPosition> {
            Set(
                office.lines.filter { $0.hasPrefix("scand/\(kiosk)/events/scan ") }.compactMap {
                    ReceivedEvent(reading: String($0.drop { $0 != " " }.dropFirst()))?.position
                })
        }
        #expect(office.wait { _ in scanned("plain") == scans && scanned("lost") == scans }, "\(plain.stderr)\n\(lost.stderr)")
        // The last LOST comes after the last SCAN: with it, all the LOSTs are there.
        #expect(office.wait { lines in lines.filter { $0.hasPrefix("scand/lost/events/lost ") }.count == 3 }, "\(lost.stderr)")
        // A stop publishes the offline status after everything the bridge took: then the broker has it all.
        for (b, id) in [(plain, "plain"), (lost, "lost")] {
            b.signal(SIGTERM)
            #expect(b.finish() == 0)
            #expect(office.wait { $0.contains(#"scand/\#(id)/status {"state":"offline","kiosk":"\#(id)"}"#) })
        }
        #expect(Self.classes(office.lines, under: "scand/plain") == ["scan": ["SCAN"]], "no UPDATE, LOST, STATS or DEVICE: \(office.lines)")
        #expect(Self.classes(office.lines, under: "scand/lost") == ["scan": ["SCAN"], "lost": ["LOST"]])
        // From the journal's start, said in words rather than as its made-up position.
        #expect(
            plain.stderr.contains { $0.hasSuffix(#"from the oldest event its journal keeps: ?WATCH={"enable":true,"classes":["SCAN"]};"#) },
            "\(plain.stderr)")
        #expect(plain.stderr.contains { $0.contains("publishing SCAN to 127.0.0.1:\(broker.port) under scand/plain/") })
        // Nothing else under the default prefix and no prefix twice.
        #expect(!office.lines.contains { $0.hasPrefix("scand/all/") || $0.hasPrefix("site/berlin/scand//") })
    }

    /// Run by hand by a user who is not root, without a state_file: the packaged /var/lib/scand-mqtt is not
    /// theirs, so the position goes to ~/.local/state/scand-mqtt ($XDG_STATE_HOME/scand-mqtt when set). With
    /// neither writable, one line says which file failed and how to choose another, and claims no position.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root to run as nobody"))
    func aUserRunningItByHandKeepsThePositionInTheirOwnStateDirectory() throws {
        let home = dir + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        chown(home, 65534, 65534)
        chmod(dir, 0o755)
        let config = dir + "/by-hand.toml"
        try "[mqtt]\nhost = \"127.0.0.1\"\nport = 1\nkiosk_id = \"by-hand\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        func byHand(_ environment: [String: String]) throws -> SpawnedProcess {
            try SpawnedProcess(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", ScandBinary.path, "mqtt", "--config", config, "--socket", socket],
                environment: ["STATE_DIRECTORY": "", "XDG_STATE_HOME": ""].merging(environment) { $1 })
        }
        let expected = home + "/.local/state/scand-mqtt/position.json"
        let user = try byHand(["HOME": home])
        // A new bridge writes down the journal's start at once (see MQTTBridge.start).
        #expect(user.wait { (try? PositionFile.read(expected)) == MQTTBridge.journalStart }, "\(user.stderr)")
        user.signal(SIGTERM)
        #expect(user.finish() == 0)
        #expect(user.stderr.contains { $0.contains("state file \(expected)") }, "\(user.stderr)")
        #expect(!user.stderr.contains { $0.contains("/var/lib/scand-mqtt") })

        let xdg = home + "/xdg"
        let xdgUser = try byHand(["HOME": home, "XDG_STATE_HOME": xdg])
        #expect(xdgUser.wait { (try? PositionFile.read(xdg + "/scand-mqtt/position.json")) == MQTTBridge.journalStart }, "\(xdgUser.stderr)")
        xdgUser.signal(SIGTERM)
        #expect(xdgUser.finish() == 0)

        let homeless = try byHand(["HOME": "/nonexistent"])
        let failed = "state file /nonexistent/.local/state/scand-mqtt/position.json"
        #expect(homeless.wait { homeless.stderr.contains { $0.contains(failed) } }, "\(homeless.stderr)")
        homeless.signal(SIGTERM)
        #expect(homeless.finish() == 0)
        let line = homeless.stderr.first { $0.contains(failed + ":") } ?? ""
        #expect(line.contains("no position is kept") && line.contains("[mqtt] state_file or --state-file"), "\(line)")
        #expect(!line.contains("a restart resumes from the last position written"))
    }
}
