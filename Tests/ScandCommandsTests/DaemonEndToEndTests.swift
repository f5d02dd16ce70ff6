import Foundation
import Testing
import ScandTestSupport

/// `scand run` as a service: real clients on its socket, systemd's notify protocol through a datagram
/// socket the test owns, SIGHUP with good and bad files, configuration errors, the unit files.
@Suite(.serialized) struct DaemonEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()

    /// A replay of frames with a QR code and a Code 128, `seconds` long at `fps` (640x360 YUYV: 14 MB a second at
    /// 30 fps, and a test run's temporary directory holds every test's recordings; a daemon that only needs to run
    /// a while with codes in view takes 10).
    func recording(seconds: Int, name: String = "codes.rec", fps: Int = 30) throws -> String {
        let path = dir + "/" + name
        let r = try ScandBinary.run([
            "synth", "--size", "640x360", "--frames", "\(seconds * fps)", "--fps", "\(fps)", "--module-size", "2",
            "--code", "QRCode:kiosk-qr@0.25,0.5", "--code", "Code128:KIOSK-128@0.7,0.5", path
        ])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    func write(_ text: String, _ name: String) -> String {
        let path = dir + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    func events(_ lines: [String], _ classes: Set<String>) -> [String] {
        lines.filter { line in classes.contains { line.hasPrefix(#"{"class":""# + $0 + "\"") } }
    }

    @Test func subscribersGetEveryEventAndAStalledOneIsDropped() throws {
        let sock = dir + "/s1.sock"
        let config = write("[socket]\nqueue_limit = 16\n", "small-queue.toml")
        let daemon = try DaemonProcess([
            "run", "--config", config, "--socket", sock, "--source", "replay:" + (try recording(seconds: 8)),
            "--update-interval", "0.001"
        ])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let a = try #require(SocketClient(path: sock)), b = try #require(SocketClient(path: sock)), stalled = try #require(SocketClient(path: sock))
        for c in [a, b, stalled] {
            #expect(c.readLine()?.hasPrefix(#"{"class":"VERSION""#) == true)
            c.send("?WATCH={\"enable\":true};\n")
            #expect(c.readLine()?.hasPrefix(#"{"class":"WATCH""#) == true)
        }
        // `stalled` never reads again. a and b read, each on its own thread, until the daemon ends the replay.
        nonisolated(unsafe) var gotB: [String] = []
        let readerB = Thread { gotB = b.readAll() }
        readerB.start()
        let gotA = a.readAll()
        #expect(Eventually.wait { readerB.isFinished })
        #expect(daemon.finish() == 0)
        let all = events(daemon.stdout, ["SCAN", "UPDATE", "LOST", "DEVICE"])
        let seenA = events(gotA, ["SCAN", "UPDATE", "LOST", "DEVICE"]), seenB = events(gotB, ["SCAN", "UPDATE", "LOST", "DEVICE"])
        #expect(seenA.count > 200, "thousands of UPDATE events flowed")
        // Each reading client got every event from its WATCH on: a contiguous tail of what stdout printed.
        #expect(Array(all.suffix(seenA.count)) == seenA)
        #expect(Array(all.suffix(seenB.count)) == seenB)
        #expect(daemon.stderr.contains { $0.contains("stopped reading") && $0.contains("disconnected") }, "\(daemon.stderr)")
        let leftover = stalled.readAll()
        #expect(events(leftover, ["UPDATE"]).count < seenA.count, "the stalled client was cut off")
    }

    /// A kiosk application in another language: Python's socket module, filtering to SCAN and QR codes.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
                || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3")))
    func aPythonClientSubscribesWithFilters() throws {
        let sock = dir + "/py.sock"
        let daemon = try DaemonProcess([
            "run", "--socket", sock, "--update-interval", "0.1", "--source", "replay:" + (try recording(seconds: 6, name: "py.rec"))
        ])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let client = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            f = s.makefile("rwb", buffering=0)
            assert json.loads(f.readline())["class"] == "VERSION"
            f.write(b'?WATCH={"enable":true,"classes":["UPDATE"],"formats":["QRCode"]};\\n')
            assert json.loads(f.readline())["class"] == "WATCH"
            for _ in range(5):
                event = json.loads(f.readline())
                print(event["class"], event["format"], event["id"])
            """
        let python = FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3") ? "/usr/local/bin/python3" : "/usr/bin/python3"
        let r = try ScandBinary.runTool(python, ["-c", client, sock])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == String(repeating: "UPDATE QRCode 1\n", count: 5), "only the QR code's UPDATE events")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    @Test func malformedRequestsGetAnErrorAndTheConnectionStaysUsable() throws {
        let sock = dir + "/s2.sock"
        let daemon = try DaemonProcess(["run", "--socket", sock, "--source", "replay:" + (try recording(seconds: 6, name: "short.rec"))])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let c = try #require(SocketClient(path: sock))
        _ = c.readLine()
        for bad in ["hello", "?FLY;", #"?WATCH={"enable":maybe};"#, "?WATCH={\"enable\":true,\u{1b}[2J};"] {
            c.send(bad + "\n")
            let reply = try #require(c.readLine())
            #expect(reply.hasPrefix(#"{"class":"ERROR","message":""#), "\(bad) → \(reply)")
            #expect(!reply.unicodeScalars.contains { $0.value < 0x20 })
        }
        // An over-long line is refused; what follows is read normally.
        c.send(String(repeating: "A", count: 10_000) + "\n?VERSION;\n")
        #expect(c.readLine()?.contains("longer than 4096 bytes") == true)
        #expect(c.readLine()?.hasPrefix(#"{"class":"VERSION""#) == true)
        c.send("?STATUS;\n")
        let status = try #require(c.read { $0.hasPrefix(#"{"class":"STATUS""#) })
        #expect(status.contains(#""clients":1"#) && status.contains(#""device":{"path":"#))
        // A client that disconnects mid-line does not disturb anyone.
        do {
            let rude = try #require(SocketClient(path: sock))
            rude.send("?WAT")
        }
        let d = try #require(SocketClient(path: sock))
        _ = d.readLine()
        d.send("?STATUS;\n")
        #expect(d.read { $0.hasPrefix(#"{"class":"STATUS""#) } != nil)
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
        #expect(!FileManager.default.fileExists(atPath: sock), "the socket file is removed on shutdown")
        #expect(daemon.stderr.filter { $0.contains("client connected: pid") }.count >= 3, "credentials are logged")
        #expect(daemon.stderr.contains { $0.contains("client disconnected: pid") && $0.hasSuffix(" s") }, "and their going: \(daemon.stderr)")
    }

    @Test func theSocketIsServedWithoutACameraAndSaysWhereTheCameraStands() throws {
        let sock = dir + "/nocam.sock"
        let daemon = try DaemonProcess(["run", "--device", dir + "/video-absent", "--socket", sock])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let status = try ScandBinary.run(["watch", "--socket", sock, "--status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains(#""device":{"path":""#) && status.stdout.contains(#""state":"waiting""#), "\(status.stdout)")
        #expect(status.stdout.contains("no such device"))
        #expect(daemon.stdout.contains { $0.contains(#""class":"DEVICE""#) && $0.contains("waiting") })
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
        // With the daemon gone, the client says so and exits 69.
        let gone = try ScandBinary.run(["watch", "--socket", sock])
        #expect(gone.status == 69 && gone.stderr.contains("scand is not running"))
    }

    @Test func notifiesSystemdReadyStatusWatchdogAndStopping() throws {
        let notify = dir + "/notify.sock"
        let fd = try #require(UnixSocket.bound(notify, type: SOCK_DGRAM))
        defer { close(fd) }
        var tv = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let daemon = try DaemonProcess(
            ["run", "--socket", "none", "--source", "replay:" + (try recording(seconds: 6, name: "notify.rec"))],
            environment: ["NOTIFY_SOCKET": notify, "WATCHDOG_USEC": "600000"])
        var messages: [String] = []
        /// One datagram, if one comes within the socket's timeout (or at once, with MSG_DONTWAIT).
        func receive(_ flags: Int32 = 0) -> Bool {
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buf, buf.count, flags)
            if n > 0 { messages.append(String(decoding: buf[..<n], as: UTF8.self)) }
            return n > 0
        }
        Eventually.wait {
            _ = receive()
            return messages.contains { $0.contains("READY=1") } && messages.filter { $0 == "WATCHDOG=1" }.count >= 4
        }
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
        // All the daemon said is queued on the socket once it has ended.
        while receive(Int32(MSG_DONTWAIT)) {}
        let ready = try #require(messages.first { $0.contains("READY=1") }, "\(messages)")
        #expect(ready.contains("STATUS=streaming") && ready.contains("frames decoded"))
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 4, "pinged every 300 ms while frames flow: \(messages)")
        #expect(messages.last == "STOPPING=1")
    }

    @Test func sighupAppliesAGoodFileAndKeepsTheRunningConfigurationOnABadOne() throws {
        let config = write("[decoding]\nformats = [\"QRCode\"]\n", "reload.toml")
        let daemon = try DaemonProcess([
            "run", "--config", config, "--socket", "none", "--source", "replay:" + (try recording(seconds: 20, name: "long.rec"))
        ])
        #expect(daemon.wait { daemon.stdout.contains { $0.contains(#""class":"SCAN""#) } })
        #expect(events(daemon.stdout, ["SCAN"]).allSatisfy { $0.contains(#""format":"QRCode""#) })
        _ = write("[decoding]\nformats = [\"QRCode\", \"nope\"]\n", "reload.toml")
        daemon.signal(SIGHUP)
        #expect(daemon.wait { daemon.stderr.contains { $0.contains("reload refused") } })
        let refusal = daemon.stderr.first { $0.contains("reload refused") } ?? ""
        #expect(refusal.contains("reload.toml: line 2") && refusal.contains("unknown barcode format 'nope'"), "\(refusal)")
        #expect(daemon.process.isRunning)
        _ = write("[decoding]\nformats = [\"Code128\"]\n", "reload.toml")
        let before = daemon.stdout.count
        daemon.signal(SIGHUP)
        #expect(daemon.wait { daemon.stderr.contains { $0.contains("configuration reloaded") } })
        #expect(daemon.wait { daemon.stdout.dropFirst(before).contains { $0.contains(#""format":"Code128""#) && $0.contains(#""class":"SCAN""#) } })
        let after = events(Array(daemon.stdout.dropFirst(before)), ["SCAN"])
        #expect(!after.isEmpty && after.allSatisfy { $0.contains(#""format":"Code128""#) })
        daemon.signal(SIGINT)
        #expect(daemon.finish() == 0)
    }

    @Test func aWrongConfigurationFileIsRefusedAtStart() throws {
        let bad = write("[camera]\nsize = \"1280x720\"\nfsp = 30\n", "typo.toml")
        let r = try ScandBinary.run(["run", "--config", bad, "--socket", "none"])
        #expect(r.status == 78)
        #expect(r.stderr.contains("typo.toml: line 3: unknown key 'fsp' in [camera]"), "\(r.stderr)")
        let missing = try ScandBinary.run(["run", "--config", dir + "/absent.toml", "--socket", "none"])
        #expect(missing.status == 78 && missing.stderr.contains("cannot read the configuration file"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate")))
    func socketActivationHandsOverTheListeningSocket() throws {
        let sock = dir + "/activated.sock"
        let daemon = try DaemonProcess(
            ["-l", sock, ScandBinary.path, "run", "--source", "replay:" + (try recording(seconds: 6, name: "act.rec"))],
            executable: "/usr/bin/systemd-socket-activate")
        // The socket's file is there from bind(2), a moment before listen(2): wait for a connection, not the file.
        var client: SocketClient?
        let connected = daemon.wait {
            client = SocketClient(path: sock)
            return client != nil
        }
        #expect(connected)
        let c = try #require(client)
        #expect(c.readLine()?.hasPrefix(#"{"class":"VERSION""#) == true, "served by scand through the passed socket")
        daemon.signal(SIGTERM)
        _ = daemon.finish()
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func unitFilesVerifyAndAreHardened() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let units = dir + "/units"
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        for name in ["scand.service", "scand.socket", "scand-web.service"] {
            let text = try String(contentsOf: root.appendingPathComponent("systemd/" + name), encoding: .utf8)
            // Point ExecStart at the binary under test so verify can check it exists.
            try text.replacingOccurrences(of: "/usr/local/bin/scand", with: ScandBinary.path)
                .write(toFile: units + "/" + name, atomically: true, encoding: .utf8)
        }
        let verify = try UnitVerification.verify([units + "/scand.service", units + "/scand.socket", units + "/scand-web.service"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(!verify.stderr.contains("scand."), "no complaints about our units: \(verify.stderr)")
        // The daemon with no network at all; scand web with HTTP on loopback only.
        for (unit, target) in [("scand.service", 2.0), ("scand-web.service", 2.0)] {
            let security = try ScandBinary.runTool("/usr/bin/systemd-analyze", ["security", "--offline=true", units + "/" + unit])
            let line = try #require(security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") })
            let score = Double(line.split(separator: ":").last?.split(separator: " ").first ?? "") ?? 99
            print("\(unit): \(line)")
            #expect(score <= target, "\(unit): \(line)")
        }
    }
}
