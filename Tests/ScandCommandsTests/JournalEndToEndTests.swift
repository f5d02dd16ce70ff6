import Foundation
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

/// The journal through the real daemon: `since` after a client was cut off mid-replay and after a
/// restart, a `since` older than the journal, a full disk.
@Suite(.serialized) struct JournalEndToEndTests {
    let e2e = DaemonEndToEndTests()
    var dir: String { e2e.dir }

    /// A journal of a few hundred events: a replay with UPDATE events as often as they come, in lockstep (every
    /// frame decoded, on the recorded clock: as many events on a loaded machine as on a quiet one).
    func journaled(state: String, config: [String] = []) throws -> [String] {
        let daemon = try DaemonProcess(
            [
                "run", "--socket", "none", "--replay-pace", "lockstep", "--update-interval", "0.001",
                "--state-directory", state, "--source", "replay:" + (try e2e.recording(seconds: 4))
            ] + config)
        #expect(daemon.finish() == 0)
        return daemon.stdout
    }

    @Test func aClientCutOffMidReplayGetsTheRestOnceAndInOrderAcrossARestart() throws {
        let state = dir + "/state", sock = dir + "/j1.sock"
        let first = try journaled(state: state)
        let numbered = first.filter { ReceivedEvent(reading: $0)?.position != nil }
        try #require(numbered.count > 200, "\(numbered.count)")
        let start = try #require(ReceivedEvent(reading: numbered[0])?.position)
        #expect(start.seq == 1 && FleetRecordings.positions(numbered).map(\.seq) == Array(1...numbered.count))
        // A second daemon numbers on, under a boot of its own, while tickets come and go live.
        let till = try FleetRecordings.till(tickets: 40, leadIn: 2, to: dir + "/till.rec")
        let daemon = try DaemonProcess([
            "run", "--socket", sock, "--state-directory", state, "--replay-pace", "recorded", "--source", "replay:" + till
        ])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })

        let a = try #require(SocketClient(path: sock))
        #expect(a.readLine()?.hasPrefix(#"{"class":"VERSION","boot":""#) == true)
        a.send(FleetRecordings.since(start))
        #expect(a.readLine()?.hasPrefix(#"{"class":"WATCH""#) == true)
        var gotA: [String] = []
        while gotA.count < 100, let line = a.readLine() { gotA.append(line) }
        #expect(
            gotA.count == 100 && gotA == numbered[1...100].map(EventEncoder.markingReplayed),
            "the journal's lines, marked: \(gotA.first?.prefix(300) ?? "")")
        close(a.fd)  // cut off in the middle of the replay

        let b = try #require(SocketClient(path: sock))
        _ = b.readLine()
        let resume = try #require(ReceivedEvent(reading: gotA.last!)?.position)
        b.send(FleetRecordings.since(resume))
        #expect(b.readLine()?.hasPrefix(#"{"class":"WATCH""#) == true)
        var gotB: [String] = []
        // Until two ticket SCANs have come live.
        while FleetRecordings.scans(gotB).filter({ !$0.hasSuffix(#""replayed":true}"#) }).count < 2, let line = b.readLine() { gotB.append(line) }
        let events = gotB.compactMap { ReceivedEvent(reading: $0) }
        #expect(events.count == gotB.count)
        #expect(events.map { $0.position?.seq ?? 0 } == Array((resume.seq + 1)...(resume.seq + gotB.count)), "each event once, in order, no gap")
        let replayed = events.prefix { $0.stamp?.replayed == true }
        #expect(
            replayed.count >= numbered.count - 101 && !events.dropFirst(replayed.count).contains { $0.stamp?.replayed == true }, "replay, then live")
        #expect(Array(gotB.prefix(numbered.count - 101)) == numbered[101...].map(EventEncoder.markingReplayed), "the rest of the journal, marked")
        #expect(events.dropFirst(numbered.count - 101).allSatisfy { $0.stamp?.boot != start.boot }, "the new boot's events follow")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    @Test func aSinceOlderThanTheJournalGetsWhatIsKeptAfterAnError() throws {
        let state = dir + "/state-old", sock = dir + "/j2.sock"
        let config = e2e.write("[journal]\nmax_events = 50\n", "small-journal.toml")
        let first = try journaled(state: state, config: ["--config", config])
        let start = try #require(FleetRecordings.positions(first).first)
        let daemon = try DaemonProcess(["run", "--config", config, "--socket", sock, "--state-directory", state, "--device", dir + "/no-camera"])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let client = try #require(SocketClient(path: sock))
        _ = client.readLine()
        client.send(FleetRecordings.since(start))
        #expect(client.readLine()?.hasPrefix(#"{"class":"WATCH""#) == true)
        let error = try #require(client.readLine())
        #expect(
            error.hasPrefix(
                #"{"class":"ERROR","message":"since {\"boot\":\"\#(start.boot)\",\"seq\":1} is not in the journal (older events were pruned): the journal keeps seq "#
            ), "\(error)")
        // "journal keeps seq A…B since …": then A, A+1, … B, replayed.
        let kept = try #require(error.range(of: "keeps seq ")).upperBound
        let bounds = error[kept...].prefix { $0 != " " }.split(separator: "…").compactMap { Int($0) }
        #expect(bounds.count == 2 && bounds[1] - bounds[0] + 1 >= 50 && bounds[1] - bounds[0] < 50 + 64, "\(bounds)")
        var got: [ReceivedEvent] = []
        while got.count < bounds[1] - bounds[0] + 1, let line = client.readLine(), let e = ReceivedEvent(reading: line) { got.append(e) }
        #expect(got.map { $0.position?.seq ?? 0 } == Array(bounds[0]...bounds[1]) && got.allSatisfy { $0.stamp?.replayed == true })
        let last = try #require(first.last { ReceivedEvent(reading: $0)?.position != nil })
        #expect(
            got.first { $0.position == ReceivedEvent(reading: last)?.position }?.liveLine == last,
            "the first daemon's last event, as it was published")
        client.send("?STATUS;\n")
        let status = try #require(client.read { $0.hasPrefix(#"{"class":"STATUS""#) })
        #expect(status.contains(#""journal":{"state":"on","boot":""#) && status.contains(#""first":\#(bounds[0])"#), "\(status)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// A state directory on a tmpfs of 96 KiB: the journal fills it, says so once and goes off; scans go on.
    /// Once the tmpfs is made larger the journal comes back by itself (issue 25, 3) and says which events
    /// it missed, in STATUS and in a JOURNAL event.
    @Test(.enabled(if: getuid() == 0, "mounts a tmpfs"))
    func aFullDiskSwitchesTheJournalOffOnceAndItComesBackWhenThereIsRoom() throws {
        let state = dir + "/tiny", sock = dir + "/j3.sock"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let mount = try ScandBinary.runTool("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=96k", "tmpfs", state])
        try #require(mount.status == 0, "cannot mount a tmpfs here: \(mount.stderr)")
        defer { _ = try? ScandBinary.runTool("/usr/bin/umount", [state]) }
        let recording = try e2e.recording(seconds: 12, name: "full.rec")
        let daemon = try DaemonProcess([
            "run", "--socket", sock, "--state-directory", state, "--replay-pace", "recorded",
            "--update-interval", "0.001", "--source", "replay:" + recording
        ])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let client = try #require(SocketClient(path: sock))
        _ = client.readLine()
        var status = ""
        func journal(_ state: String) -> Bool {
            client.send("?STATUS;\n")
            status = client.read { $0.hasPrefix(#"{"class":"STATUS""#) } ?? ""
            return status.contains(#""journal":{"state":"\#(state)""#)
        }
        #expect(daemon.wait(seconds: 30) { journal("off") }, "\(status)")
        #expect(status.contains("disk is full") || status.contains("disk"), "\(status)")
        #expect(status.contains(#""notJournaled":{"first":"#) && status.contains(#""retryIn":"#), "\(status)")
        let grown = try ScandBinary.runTool("/usr/bin/mount", ["-o", "remount,size=4m", state])
        #expect(grown.status == 0, "\(grown.stderr)")
        #expect(daemon.wait(seconds: 30) { journal("on") }, "\(status)")
        #expect(status.contains(#""notJournaled":{"first":"#), "the gap stays stated: \(status)")
        #expect(daemon.finish() == 0)
        let off = daemon.stderr.filter { $0.contains("event journal off") }
        #expect(off.count == 1, "\(daemon.stderr)")
        #expect(daemon.stderr.contains { $0.contains("on again") && $0.contains("published live only and are not in it") }, "\(daemon.stderr)")
        let notices = daemon.stdout.filter { $0.hasPrefix(#"{"class":"JOURNAL""#) }
        #expect(notices.count == 2 && notices[0].contains(#""state":"off""#) && notices[1].contains(#""state":"on""#), "\(notices)")
        let scans = FleetRecordings.scans(daemon.stdout)
        #expect(scans.count == 2 && scans.allSatisfy { ReceivedEvent(reading: $0)?.position != nil }, "both codes published live, numbered")
        #expect(daemon.stdout.filter { $0.hasPrefix(#"{"class":"UPDATE""#) }.count > 100)
    }

    /// Issue 25, 4: the journal's files removed under a running daemon: it notices before the next append,
    /// says so loudly, starts a new journal with a new id and numbers on; a restart numbers on from it.
    @Test func aJournalRemovedUnderTheDaemonIsReplacedAndTheNumberingGoesOn() throws {
        let state = dir + "/removed", sock = dir + "/j4.sock"
        let recording = try e2e.recording(seconds: 6, name: "removed.rec")
        func run() throws -> DaemonProcess {
            try DaemonProcess([
                "run", "--socket", sock, "--state-directory", state, "--replay-pace", "recorded", "--update-interval", "0.05",
                "--source", "replay:" + recording
            ])
        }
        let daemon = try run()
        #expect(daemon.wait { daemon.stdout.filter { $0.hasPrefix(#"{"class":"UPDATE""#) }.count > 10 })
        for suffix in ["", "-wal", "-shm"] { unlink(state + "/journal.sqlite" + suffix) }
        #expect(daemon.finish() == 0)
        #expect(daemon.stderr.contains { $0.contains("was removed or replaced while in use") }, "\(daemon.stderr)")
        let notice = try #require(daemon.stdout.first { $0.hasPrefix(#"{"class":"JOURNAL""#) })
        #expect(notice.contains("new event journal") && notice.contains(#""state":"on""#), "\(notice)")
        let last = try #require(FleetRecordings.positions(daemon.stdout).last)
        // The new journal holds what followed, and the next daemon numbers on from it.
        let next = try run()
        #expect(next.finish() == 0)
        let first = try #require(FleetRecordings.positions(next.stdout).first)
        #expect(first.seq == last.seq + 1, "\(first) after \(last)")
    }
}
