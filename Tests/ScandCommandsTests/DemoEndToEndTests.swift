import Foundation
import ScandProtocol
import ScandTestSupport
import Testing

/// `scand run --source demo` as a newcomer pastes it, with `scand watch --raw` beside it: the real daemon,
/// decoder processes, tracker and socket, with no camera and no file. Codes come and go for ever, so a
/// client that connects late still sees scans, each showing once.
@Suite(.serialized) struct DemoEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()
    static let texts: Set<String> = ["Hello from scand", "4006381333931", "SCAND-DEMO-128", "scand demo DataMatrix"]

    /// The SCAN and LOST events among `lines`, as (class, text).
    static func showings(_ lines: [String]) -> [(String, String)] {
        lines.compactMap { line in
            guard let e = try? EventDecoder.decode(line), e.eventClass == .scan || e.eventClass == .lost, let text = e.code?.text else { return nil }
            return (e.eventClass == .scan ? "SCAN" : "LOST", text)
        }
    }

    /// Each code's events alternate SCAN, LOST, SCAN …: one SCAN a showing. A client that came while a code was
    /// in view may see its LOST first.
    static func oneScanEachShowing(_ events: [(String, String)], lateJoiner: Bool) -> Bool {
        Dictionary(grouping: events, by: \.1).values.allSatisfy { mine in
            let classes = mine.map(\.0).drop { lateJoiner && $0 == "LOST" }
            return classes.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? "SCAN" : "LOST") }
        }
    }

    @Test func aClientThatConnectsLateSeesEachCodeScannedOnceAShowingAndAgainNextLoop() throws {
        let sock = dir + "/demo.sock"
        let daemon = try DaemonProcess(["run", "--source", "demo", "--socket", sock, "--state-directory", dir + "/demo-state"])
        // The client comes after a code was already scanned and lost: what `scand synth`'s every-code-in-frame-0
        // recording never showed a late client.
        #expect(
            daemon.wait(seconds: 30) { Self.showings(daemon.stdout).contains { $0.0 == "LOST" } }, "\(daemon.stdout) \(daemon.stderr)")
        let watcher = try SpawnedProcess(ScandBinary.path, ["watch", "--socket", sock, "--raw", "--count", "2"])
        let client = try #require(SocketClient(path: sock))
        let connected = ContinuousClock.now
        #expect(client.readLine()?.hasPrefix(#"{"class":"VERSION""#) == true)
        client.send("?WATCH={\"enable\":true};\n")
        var events: [(String, String)] = []
        var twoCodesAfter: Duration?
        // Until one code was scanned on two loops (SCAN, LOST, SCAN), a loop and a bit after connecting.
        // Each line as it comes: no pause between reads, or the client would fall behind the daemon.
        Eventually.wait(seconds: 30, poll: .zero) {
            guard let line = client.readLine() else { return true }
            events += Self.showings([line])
            if twoCodesAfter == nil, Set(events.filter { $0.0 == "SCAN" }.map(\.1)).count >= 2 { twoCodesAfter = ContinuousClock.now - connected }
            return Dictionary(grouping: events.filter { $0.0 == "SCAN" }, by: \.1).values.contains(where: { $0.count >= 2 })
        }
        let scanned = events.filter { $0.0 == "SCAN" }.map(\.1)
        #expect(Set(scanned).isSubset(of: Self.texts) && Set(scanned).count >= 2, "\(events)")
        #expect(twoCodesAfter.map { $0 < .seconds(12) } == true, "two codes scanned \(twoCodesAfter.map { "\($0)" } ?? "never") after connecting")
        #expect(Dictionary(grouping: scanned, by: { $0 }).values.contains { $0.count == 2 }, "a code scanned again on the next loop: \(events)")
        #expect(Self.oneScanEachShowing(events, lateJoiner: true), "\(events)")

        #expect(watcher.finish(seconds: 30) == 0, "\(watcher.stderr)")
        #expect(watcher.stdout.count == 2 && Set(watcher.stdout).isSubset(of: Self.texts), "\(watcher.stdout)")

        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0, "\(daemon.stderr)")
        let printed = Self.showings(daemon.stdout)
        #expect(Set(printed.filter { $0.0 == "SCAN" }.map(\.1)) == Self.texts, "every code of the loop scanned: \(printed)")
        #expect(Self.oneScanEachShowing(printed, lateJoiner: false), "\(printed)")
    }

    @Test func aWrongSourceNamesBothKinds() throws {
        let r = try ScandBinary.run(["run", "--source", "demo:x", "--socket", "none"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--source must be replay:FILE or demo; got 'demo:x'"), "\(r.stderr)")
    }

    /// `scand synth` with codes that come and go, replayed: each code scanned once a loop.
    @Test func aSynthesizedScheduleIsScannedOnceEachLoop() throws {
        let path = dir + "/schedule.rec"
        let made = try ScandBinary.run([
            "synth", "--size", "640x480", "--fps", "10", "--loops", "2", "--loop-seconds", "5",
            "--code", "QRCode:first@0.5,0.5,0-1", "--code", "Code128:SECOND@0.5,0.5,2-3", path
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let r = try ScandBinary.run(["run", "--source", "replay:" + path, "--replay-pace", "lockstep", "--socket", "none"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            Self.showings(r.lines).map { "\($0.0) \($0.1)" } == [
                "SCAN first", "LOST first", "SCAN SECOND", "LOST SECOND", "SCAN first", "LOST first", "SCAN SECOND", "LOST SECOND"
            ])
    }

    @Test(arguments: [
        (["--loops", "2", "--frames", "10", "--code", "QRCode:a@0.5,0.5,0-1"], "--frames or --loops"),
        (["--loops", "2", "--code", "QRCode:a@0.5,0.5"], "--loops needs"),
        (["--loops", "0", "--code", "QRCode:a@0.5,0.5,0-1"], "--loops must be"),
        (["--fps", "0"], "--fps must be"),
        (["--code", "QRCode:a@0.5,0.5,0-2", "--loop-seconds", "1"], "after the loop")
    ])
    func aWrongScheduleIsRefusedInOneLine(arguments: [String], naming: String) throws {
        let r = try ScandBinary.run(["synth", "--size", "320x240"] + arguments + [dir + "/refused.rec"])
        #expect(r.status == 64 && r.stderr.contains(naming), "\(r.status) \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/refused.rec"))
    }
}
