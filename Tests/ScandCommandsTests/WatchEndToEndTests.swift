import Foundation
import ScandProtocol
import ScandTestSupport
import Testing

/// `scand watch` for shell scripts, against the real daemon: `--raw`, `--count`, `--timeout`, `--exec`,
/// a daemon that goes away, and `--reconnect` across a restart (nothing printed twice, nothing lost).
@Suite(.serialized) struct WatchEndToEndTests {
    let e2e = DaemonEndToEndTests()
    var dir: String { e2e.dir }

    /// The daemon on a till of QR codes with `texts`, numbered in a journal under `state`. The first code comes
    /// `leadIn` seconds in: a watcher started once the socket is there must be subscribed by then, and starting a
    /// debug build's process on a busy machine took over 2 s (the first scan missed, twice, in full test runs).
    func daemon(_ texts: [String], socket: String, state: String, leadIn: Double = 6, name: String) throws -> DaemonProcess {
        let till = try FleetRecordings.till(texts: texts, leadIn: leadIn, tail: 1, to: "\(dir)/\(name).rec")
        return try DaemonProcess([
            "run", "--socket", socket, "--state-directory", state, "--replay-pace", "recorded", "--source", "replay:" + till
        ])
    }

    func watch(_ arguments: [String]) throws -> SpawnedProcess {
        try SpawnedProcess(ScandBinary.path, ["watch"] + arguments)
    }

    /// The texts of the SCAN lines a daemon printed, in order.
    static func scanned(_ lines: [String]) -> [String] {
        lines.compactMap { line in (try? EventDecoder.decode(line)).flatMap { $0.eventClass == .scan ? $0.code?.text : nil } }
    }

    @Test func rawPrintsTheTextOfEachScanAndCountEndsIt() throws {
        let sock = dir + "/raw.sock"
        let texts = ["ticket-1", "two words", "tab\there"]
        let daemon = try daemon(texts + ["ticket-4"], socket: sock, state: dir + "/raw-state", name: "raw")
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let raw = try watch(["--socket", sock, "--raw", "--count", "3"])
        let json = try watch(["--socket", sock, "--classes", "SCAN", "--count", "1"])
        #expect(raw.finish(seconds: 60) == 0, "\(raw.stderr)")
        #expect(raw.stdout == ["ticket-1", "two words", #"tab\u0009here"#], "only the texts, control bytes escaped: \(raw.stdout)")
        #expect(json.finish(seconds: 60) == 0, "\(json.stderr)")
        #expect(json.stdout.count == 1 && json.stdout[0].hasPrefix(#"{"class":"SCAN""#), "no VERSION or WATCH line: \(json.stdout)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// The count as gpspipe's -n and mosquitto_sub's -C (issue 46, item 14).
    @Test func minusNAndMinusCapitalCAreTheCount() throws {
        let sock = dir + "/short.sock"
        let daemon = try daemon(["short-1", "short-2", "short-3"], socket: sock, state: dir + "/short-state", name: "short")
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let n = try watch(["--socket", sock, "--raw", "-n", "1"])
        let c = try watch(["--socket", sock, "--raw", "-C", "2"])
        #expect(n.finish(seconds: 60) == 0, "\(n.stderr)")
        #expect(c.finish(seconds: 60) == 0, "\(c.stderr)")
        #expect(n.stdout == ["short-1"] && c.stdout == ["short-1", "short-2"], "\(n.stdout) \(c.stdout)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    @Test func aDaemonThatGoesAwayIsAnErrorWithoutReconnect() throws {
        let sock = dir + "/away.sock"
        let daemon = try daemon(
            Array(repeating: "x", count: 30).enumerated().map { "item-\($0.offset)" }, socket: sock, state: dir + "/away", name: "away")
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let watcher = try watch(["--socket", sock, "--raw"])
        #expect(watcher.wait { watcher.stdout.count >= 1 })
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
        #expect(watcher.finish() == 69)
        #expect(watcher.stderr.contains { $0.contains("scand closed the connection") && $0.contains("--reconnect") }, "\(watcher.stderr)")
    }

    @Test func timeoutExitsFourWhenNoScanCame() throws {
        let sock = dir + "/quiet.sock"
        let daemon = try daemon([], socket: sock, state: dir + "/quiet", leadIn: 20, name: "quiet")
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let started = Date()
        let watcher = try watch(["--socket", sock, "--raw", "--timeout", "1.5"])
        #expect(watcher.finish(seconds: 30) == 4, "\(watcher.stderr)")
        #expect(Date().timeIntervalSince(started) >= 1.5)
        #expect(watcher.stdout.isEmpty && watcher.stderr.contains { $0.contains("no scan came within 1.5 s") }, "\(watcher.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// The daemon is not there yet, comes, stops in the middle of a till and comes back (the same journal):
    /// the watcher prints every scan of both daemons once, in order.
    @Test func reconnectWaitsForTheDaemonAndResumesAcrossARestart() throws {
        let sock = dir + "/again.sock", state = dir + "/again"
        let watcher = try watch(["--socket", sock, "--raw", "--reconnect"])
        #expect(watcher.wait(seconds: 10) { watcher.stderr.contains { $0.contains("scand is not running") && $0.contains("trying again") } })
        // The first subscription is live: the daemon's first scan comes after the watcher's longest wait (5 s).
        let first = try daemon((1...12).map { "first-\($0)" }, socket: sock, state: state, leadIn: 7, name: "first")
        #expect(watcher.wait(seconds: 60) { watcher.stdout.count >= 3 }, "\(watcher.stdout) \(watcher.stderr)")
        #expect(watcher.stdout.first == "first-1", "\(watcher.stdout)")
        first.signal(SIGTERM)  // mid-till: what it scans before it stops reaches the watcher only from the journal
        #expect(first.finish() == 0)
        let second = try daemon((1...3).map { "second-\($0)" }, socket: sock, state: state, leadIn: 1, name: "second")
        #expect(watcher.wait(seconds: 60) { watcher.stdout.last == "second-3" }, "\(watcher.stdout)")
        let expected = Self.scanned(first.stdout) + Self.scanned(second.stdout)
        #expect(expected.count >= 6 && expected.last == "second-3", "\(expected)")
        #expect(watcher.stdout == expected, "every scan once, in order: \(watcher.stdout) against \(expected)")
        #expect(watcher.stderr.contains { $0.contains("subscribed again") }, "\(watcher.stderr)")
        let firstSubscription = watcher.stderr.first { $0.contains("subscribed") }
        #expect(firstSubscription?.hasSuffix("scand answers: subscribed") == true, "the first is no 'again': \(watcher.stderr)")
        watcher.signal(SIGTERM)
        #expect(watcher.finish() != 0)
        second.signal(SIGTERM)
        #expect(second.finish() == 0)
    }

    /// A watcher that has received no event yet still holds a position (the daemon's answer to its WATCH):
    /// the daemon stops, another scans while no socket is open, and a third is connected to; the watcher gets
    /// those scans from the journal, each once. A first subscription that held no position resumed live and
    /// lost them.
    @Test func aFirstSubscriptionWithoutEventsResumesAfterARestart() throws {
        let sock = dir + "/first-sub.sock", state = dir + "/first-sub"
        let quiet = try daemon([], socket: sock, state: state, leadIn: 60, name: "first-sub-quiet")
        #expect(quiet.wait { FileManager.default.fileExists(atPath: sock) })
        #expect(quiet.wait { quiet.stdout.contains { ReceivedEvent(reading: $0)?.position != nil } }, "a numbered event: the journal is not empty")
        let watcher = try watch(["--socket", sock, "--raw", "--reconnect"])
        let subscribed = Eventually.wait(seconds: 30) {
            guard let c = SocketClient(path: sock) else { return false }
            _ = c.readLine()
            c.send("?STATUS;\n")
            return c.read { $0.hasPrefix(#"{"class":"STATUS""#) }?.contains(#""watching":1"#) == true
        }
        #expect(subscribed, "\(watcher.stderr)")
        quiet.signal(SIGTERM)
        #expect(quiet.finish() == 0)
        // Scans with no socket to connect to: the watcher can only get them from the journal.
        let till = try FleetRecordings.till(texts: ["missed-1", "missed-2", "missed-3"], leadIn: 1, tail: 1, to: "\(dir)/first-sub.rec")
        let scanning = try DaemonProcess([
            "run", "--socket", "none", "--state-directory", state, "--replay-pace", "recorded", "--source", "replay:" + till
        ])
        #expect(scanning.finish(seconds: 60) == 0)
        let missed = Self.scanned(scanning.stdout)
        #expect(missed == ["missed-1", "missed-2", "missed-3"], "\(scanning.stdout)")
        let idle = try DaemonProcess(["run", "--socket", sock, "--state-directory", state, "--device", dir + "/no-camera"])
        #expect(watcher.wait(seconds: 30) { watcher.stdout.count >= missed.count }, "\(watcher.stdout) \(watcher.stderr)")
        #expect(watcher.stdout == missed, "each scan made while it was away, once: \(watcher.stdout)")
        #expect(!watcher.stderr.contains { $0.contains("not in the journal") }, "\(watcher.stderr)")
        watcher.signal(SIGTERM)
        #expect(watcher.finish() != 0)
        idle.signal(SIGTERM)
        #expect(idle.finish() == 0)
    }

    @Test func execRunsTheCommandForEachScanWithThePayloadOnlyInItsEnvironment() throws {
        let sock = dir + "/exec.sock"
        let hostile = #"a'b"c $(touch \#(dir)/pwned) ;x"#
        let daemon = try daemon(["ticket-1", hostile, "slow", "ticket-4"], socket: sock, state: dir + "/exec", name: "exec")
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let log = dir + "/exec.log", script = dir + "/hook.sh"
        try """
        #!/bin/sh
        printf '%s|%s|%s|%s\\n' "$SCAND_TEXT" "$SCAND_FORMAT" "$SCAND_ID" "$SCAND_SEQ" >> \(log)
        [ "$SCAND_TEXT" = slow ] && exec sleep 30
        [ "$SCAND_TEXT" = ticket-1 ] && exit 3
        exit 0
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let watcher = try watch(["--socket", sock, "--count", "4", "--exec", script, "--exec-timeout", "1"])
        #expect(watcher.finish(seconds: 90) == 0, "\(watcher.stderr)")
        let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: "|", omittingEmptySubsequences: false)
        }
        #expect(runs.map { String($0[0]) } == ["ticket-1", hostile, "slow", "ticket-4"], "one run per scan, in order: \(runs)")
        #expect(runs.allSatisfy { $0[1] == "QRCode" && Int($0[2]) != nil && Int($0[3]) != nil })
        #expect(!FileManager.default.fileExists(atPath: dir + "/pwned"), "the payload never reaches a shell")
        #expect(watcher.stdout.isEmpty, "--exec replaces printing")
        let status = watcher.stderr
        #expect(status.contains { $0.contains("--exec for SCAN") && $0.hasSuffix("exited 3") }, "\(status)")
        #expect(status.contains { $0.contains("took longer than 1.0 s and was ended") }, "\(status)")
        #expect(status.filter { $0.hasSuffix("exited 0") }.count == 2, "\(status)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// A scan came and its command runs past `--timeout`: not "no scan came" (the scan counts from its
    /// arrival, not from its command's end), and the command is not cut short; `--count 1` ends it with 0.
    @Test func timeoutCountsAScanWhoseCommandRunsLongerThanIt() throws {
        let sock = dir + "/busy.sock"
        let daemon = try daemon(["long-hook"], socket: sock, state: dir + "/busy", leadIn: 1, name: "busy")
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let log = dir + "/busy.log"
        let watcher = try watch([
            "--socket", sock, "--count", "1", "--timeout", "6", "--shell", "--exec", "sleep 7; echo \"$SCAND_TEXT\" > \(log)"
        ])
        #expect(watcher.finish(seconds: 60) == 0, "\(watcher.stderr)")
        #expect((try? String(contentsOfFile: log, encoding: .utf8)) == "long-hook\n", "the command ran to its end")
        #expect(watcher.stderr.contains { $0.contains("--exec for SCAN") && $0.hasSuffix("exited 0") }, "\(watcher.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// SIGTERM or SIGINT to a watcher whose command runs ends the command's process group (the command and
    /// what it started in the background) before the watcher exits 128 + the signal. The command is in a group
    /// of its own, which a terminal's Ctrl-C does not reach; the signals' default action ended the watcher
    /// alone and left the command running.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsTheWatcherAndItsCommandsGroup(_ signal: Int32) throws {
        let name = "signal-\(signal)", sock = dir + "/signal-\(signal).sock"
        // The scan comes 4 s in: a watcher started on a loaded machine is subscribed by then.
        let daemon = try daemon(["hook-\(signal)"], socket: sock, state: dir + "/" + name, leadIn: 4, name: name)
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let pids = dir + "/\(name).pids"
        let watcher = try watch(["--socket", sock, "--shell", "--exec", "sleep 300 & echo $! $$ > \(pids).new; mv \(pids).new \(pids); wait"])
        func hookPIDs() -> [pid_t] {
            ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
        }
        defer { for pid in hookPIDs() where Self.isRunning(pid) { kill(pid, SIGKILL) } }
        #expect(watcher.wait(seconds: 60) { hookPIDs().count == 2 }, "the command and its background child: \(watcher.stderr)")
        #expect(hookPIDs().allSatisfy(Self.isRunning))
        let signalled = Date()
        watcher.signal(signal)
        #expect(watcher.finish(seconds: 30) == 128 + signal, "\(watcher.stderr)")
        #expect(Date().timeIntervalSince(signalled) < 10, "the command's group is ended at once, not at its timeout")
        #expect(!hookPIDs().contains(where: Self.isRunning), "nothing of the command outlives the watcher")
        #expect(watcher.stderr.contains { $0.contains("--exec for SCAN") && $0.contains("ended by signal \(SIGTERM)") }, "\(watcher.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// Whether `pid` is a process that has not ended (a zombie has).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        return !stat[close...].dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// A mistyped --exec is refused before the watch starts (it exited 0, the scan taken as handled), and so
    /// is what only a shell understands without --shell (issue 46, items 1 and 2).
    @Test func anExecCommandThatCannotRunIsRefusedAtOnce() throws {
        let notExecutable = dir + "/not-executable.sh"
        try "#!/bin/sh\n".write(toFile: notExecutable, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--exec", "/nonexistent/cmd", "--count", "1", "--timeout", "10"], "--exec: no such file: /nonexistent/cmd"),
            (["--exec", "no-such-command-46"], "--exec: no such command in PATH: no-such-command-46"),
            (["--exec", notExecutable], "is not an executable file"),
            (["--exec", "echo got $SCAND_TEXT"], "without a shell, so $SCAND_TEXT would reach it as it is: add --shell")
        ]
        for (arguments, message) in cases {
            let r = try ScandBinary.run(["watch", "--socket", dir + "/none.sock"] + arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains(message) && r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
        }
    }

    /// A command that cannot start when a scan comes (removed since, or not found by the shell) stops the
    /// watch with 72: the scan is not taken as handled and `--count` is not met.
    @Test(arguments: ["removed", "shell"])
    func anExecCommandThatCannotStartForAScanStopsTheWatch(_ how: String) throws {
        let sock = dir + "/gone-\(how).sock"
        let daemon = try daemon(["gone-\(how)"], socket: sock, state: dir + "/gone-\(how)", leadIn: 6, name: "gone-\(how)")
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let script = dir + "/gone-\(how).sh"
        try "#!/bin/sh\nexit 0\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let options = how == "shell" ? ["--shell", "--exec", "no-such-command-46 \"$SCAND_TEXT\""] : ["--exec", script]
        let watcher = try watch(["--socket", sock, "--count", "1"] + options)
        if how == "removed" {
            // Removed once the watcher has checked it and subscribed, before the first scan (6 s in).
            let subscribed = Eventually.wait(seconds: 30) {
                guard let c = SocketClient(path: sock) else { return false }
                _ = c.readLine()
                c.send("?STATUS;\n")
                return c.read { $0.hasPrefix(#"{"class":"STATUS""#) }?.contains(#""watching":1"#) == true
            }
            #expect(subscribed, "\(watcher.stderr)")
            try FileManager.default.removeItem(atPath: script)
        }
        #expect(watcher.finish(seconds: 60) == 72, "\(watcher.stderr)")
        let expected = how == "shell" ? "exited 127" : "could not start"
        #expect(watcher.stderr.contains { $0.contains(expected) && $0.hasSuffix("stopping: that scan is not handled") }, "\(watcher.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    @Test func optionsThatContradictAreRefused() throws {
        for arguments in [
            ["--raw", "--exec", "true"], ["--raw", "--classes", "LOST"], ["--count", "0"], ["--timeout", "-1"], ["--shell"],
            ["--classes", "LOST", "--count", "2"]
        ] {
            let r = try ScandBinary.run(["watch", "--socket", dir + "/none.sock"] + arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
        }
    }
}
