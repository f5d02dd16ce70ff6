import Foundation
import Testing
import ScandTestSupport

/// What `scand web` asks of the daemon, against the real binary: SNAPSHOT, ROI (kept across a restart,
/// refused to a peer outside the admin group), METRICS.
extension DaemonEndToEndTests {
    @Test func snapshotsRegionsOfInterestAndMetrics() throws {
        let sock = dir + "/setup.sock", state = dir + "/state"
        let recording = try recording(seconds: 20, name: "setup.rec", fps: 10)
        func start() throws -> DaemonProcess {
            try DaemonProcess([
                "run", "--socket", sock, "--source", "replay:" + recording, "--replay-pace", "recorded",
                "--state-directory", state
            ])
        }
        var daemon = try start()
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let client = try #require(SocketClient(path: sock))
        _ = client.readLine()
        client.send("?SNAPSHOT;\n")
        let snapshot = try #require(client.readLine())
        let s = try #require(try JSONSerialization.jsonObject(with: Data(snapshot.utf8)) as? [String: Any], "\(snapshot)")
        #expect(s["class"] as? String == "SNAPSHOT" && s["mime"] as? String == "image/jpeg", "\(snapshot.prefix(200))")
        #expect(s["width"] as? Int == 640 && s["height"] as? Int == 360 && s["sourceWidth"] as? Int == 640)
        let jpeg = try #require(Data(base64Encoded: s["data"] as? String ?? ""))
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]) && jpeg.count > 1000)

        // The QR code sits at x 0.25: a rect on the right half leaves it out, and survives a restart.
        client.send(#"?ROI={"x":0.5,"y":0,"w":0.5,"h":1};"# + "\n")
        #expect(client.readLine() == #"{"class":"ROI","roi":[0.5,0,0.5,1]}"#)
        client.send("?STATUS;\n")
        #expect(client.readLine()?.contains(#""roi":[0.5,0,0.5,1],"#) == true)
        #expect((try? String(contentsOfFile: state + "/roi", encoding: .utf8)) == "0.5,0.0,0.5,1.0\n")
        client.send("?METRICS;\n")
        let metrics = try #require(client.readLine())
        for name in [
            "scand_frames_captured_total", "scand_decode_duration_seconds_bucket", "scand_scans_total{format=\\\"QRCode\\\"}",
            "scand_camera_up 1"
        ] {
            #expect(metrics.contains(name), "\(name) in \(metrics.prefix(400))")
        }
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)

        daemon = try start()
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let again = try #require(SocketClient(path: sock))
        _ = again.readLine()
        again.send(#"?WATCH={"classes":["SCAN"]};"# + "\n?ROI;\n")
        var lines: [String] = []
        while lines.count < 3, let line = again.readLine() { lines.append(line) }
        #expect(lines.contains(#"{"class":"ROI","roi":[0.5,0,0.5,1]}"#), "\(lines)")
        #expect(daemon.stderr.contains { $0.contains("rect of interest 0.5,0.0,0.5,1.0 from \(state)/roi") }, "\(daemon.stderr)")
        #expect(lines.filter { $0.contains(#""class":"SCAN""#) }.allSatisfy { $0.contains("KIOSK-128") && !$0.contains("kiosk-qr") }, "\(lines)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// A peer outside the admin group may look but not change: its ?ROI= and ?CONTROLS= get the reason, the
    /// rect stays; a camera that is not there has no controls to show.
    @Test(
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func aPeerOutsideTheAdminGroupCannotChangeSettings() throws {
        let sock = dir + "/admin.sock"
        chmod(dir, 0o755)
        let config = write("[socket]\ngroup = \"nogroup\"\nadmin_group = \"root\"\n", "admin.toml")
        let daemon = try DaemonProcess(["run", "--config", config, "--socket", sock, "--device", dir + "/no-camera"])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
            f.readline()
            f.write(b'?ROI={"x":0,"y":0,"w":0.5,"h":0.5};\\n?ROI;\\n?CONTROLS={"set":[{"name":"gain","value":0}],"keep":true};\\n?CONTROLS;\\n')
            f.flush()
            for _ in range(4): print(f.readline().decode().strip())
            """
        let nobody = try ScandBinary.runTool(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, sock])
        #expect(
            nobody.stdout.split(separator: "\n") == [
                #"{"class":"ERROR","message":"changing settings needs membership of group 'root' (uid 65534 is not a member)"}"#,
                #"{"class":"ROI","roi":[0,0,1,1]}"#,
                #"{"class":"ERROR","message":"changing settings needs membership of group 'root' (uid 65534 is not a member)"}"#,
                #"{"class":"ERROR","message":"\#(dir)/no-camera: the camera is not open (waiting for it): its controls cannot be read or set now"}"#
            ], "\(nobody.stdout) \(nobody.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// A daemon that is not root picks a socket path of its own, and says which.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aDaemonThatIsNotRootSaysWhereItsSocketIs() throws {
        chmod(dir, 0o755)
        let replay = try recording(seconds: 3, name: "nobody.rec")
        let daemon = try DaemonProcess(
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "-u", "XDG_RUNTIME_DIR", ScandBinary.path, "run", "--source",
                "replay:" + replay
            ],
            executable: "/usr/bin/setpriv")
        #expect(daemon.finish(seconds: 60) == 0, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("scand: serving clients on /tmp/scand-65534.sock (mode 0660)"), "\(daemon.stderr)")
    }
}
