import Foundation
import Testing
import ScandTestSupport

/// `scand run` on a real V4L2 stack: Debian's kernel in qemu with the vivid driver looping its HDMI output
/// into its HDMI capture. Generated frames with known codes go in; the events scand prints come out.
/// Runs where qemu, a kernel and vivid are installed (scripts/vm/install-deps; CI installs them).
@Suite(.serialized) struct VividEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let harness = root.appendingPathComponent("scripts/vm/run-in-vivid-vm").path
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/qemu-system-x86_64")
            && ((try? FileManager.default.contentsOfDirectory(atPath: "/boot")) ?? []).contains { $0.hasPrefix("vmlinuz-") }
    }

    struct Sections {
        var lines: [String: [String]] = [:]
        var status: [String: Int32] = [:]

        init(_ output: String) {
            var current = ""
            for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("=== ") {
                    let words = line.dropFirst(4).split(separator: " ")
                    if words.count == 2, words[0].hasSuffix("-status") {
                        status[String(words[0].dropLast(7))] = Int32(words[1])
                    } else {
                        current = String(words.first ?? "")
                    }
                    continue
                }
                lines[current, default: []].append(line)
            }
        }

        func events(_ section: String) -> [[String: Any]] {
            (lines[section] ?? []).compactMap { line in
                guard line.hasPrefix("{") else { return nil }
                return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            }
        }
    }

    @Test(.enabled(if: available, "needs qemu-system-x86 and linux-image-amd64 (scripts/vm/install-deps)"), .timeLimit(.minutes(5)))
    func scansFromVividLoopback() throws {
        let dir = ScandBinary.temporaryDirectory()
        let frames = dir + "/frames.raw"
        // Inside the rect of interest (right half): a QR code and a Code 128; outside it: another QR code.
        let synth = try ScandBinary.run([
            "synth", "--raw", "--frames", "4", "--size", "1280x720",
            "--code", "QRCode:outside-roi@0.25,0.5", "--code", "QRCode:inside-roi@0.7,0.3",
            "--code", "Code128:IN-ROI-128@0.75,0.75", "--module-size", "3", frames
        ])
        #expect(synth.status == 0, "\(synth.stderr)")
        let vm = try ScandBinary.runTool(
            Self.harness,
            [
                "--timeout", "240", "--binary", ScandBinary.path, "--binary", ScandBinary.decoderPath, "--file", frames,
                Self.root.appendingPathComponent("scripts/vm/scand-e2e-guest.sh").path
            ])
        let text = vm.stdout
        #expect(vm.status == 0, "\(text)")
        let s = Sections(text)

        // devices: vivid's capture node with YUYV at 1280x720.
        let devices = try #require(s.events("devices").first?["devices"] as? [[String: Any]], "\(text)")
        let capture = try #require(devices.first { $0["path"] as? String == "/dev/video0" })
        #expect(capture["driver"] as? String == "vivid")
        let formats = (capture["formats"] as? [[String: Any]] ?? []).compactMap { $0["pixelformat"] as? String }
        #expect(formats.contains("YUYV"))
        #expect((capture["choice"] as? [String: Any])?["pixelformat"] as? String == "YUYV", "vivid sends YUYV: no MJPEG to choose")
        // Its controls, as v4l2-ctl names them, with the driver's ranges and current values.
        let controls = capture["controls"] as? [[String: Any]] ?? []
        let brightness = try #require(controls.first { $0["name"] as? String == "brightness" }, "\(controls)")
        // vivid moves brightness's range with the input: 384…639 on HDMI 0.
        #expect(brightness["min"] as? Int == 384 && brightness["max"] as? Int == 639 && brightness["value"] is Int, "\(brightness)")

        // A value outside a control's range: one clear message naming the control and its range.
        let refused = s.events("badcontrol").first { $0["class"] as? String == "DEVICE" && $0["state"] as? String == "waiting" }
        let message = refused?["message"] as? String ?? ""
        #expect(message.contains("camera control 'brightness': 999 is out of range; it takes 384…639"), "\(s.lines["badcontrol"] ?? [])")

        // run: payloads from inside the rect of interest only, corners inside it, counters that add up.
        #expect(s.status["run"] == 0, "\(s.lines["run"] ?? [])")
        let run = s.events("run")
        #expect(run.first?["class"] as? String == "VERSION")
        let scans = run.filter { $0["class"] as? String == "SCAN" }
        #expect(Set(scans.compactMap { $0["text"] as? String }) == ["inside-roi", "IN-ROI-128"], "\(s.lines["run"] ?? [])")
        for scan in scans {
            let normalized = scan["normalized"] as? [[Double]] ?? []
            #expect(normalized.count == 4 && normalized.allSatisfy { $0[0] >= 0.5 && $0[0] <= 1 && $0[1] >= 0 && $0[1] <= 1 })
            let pixels = scan["corners"] as? [[Double]] ?? []
            #expect(pixels.allSatisfy { $0[0] >= 640 && $0[0] <= 1280 })
        }
        let stats = try #require(run.last { $0["class"] as? String == "STATS" })
        let count = { (key: String) in stats[key] as? Int ?? 0 }
        let (captured, decoded) = (count("captured"), count("decoded"))
        #expect(captured == 40)
        // A frame is decoded, dropped while the decoder was busy, rested (its scene unchanged since a decode:
        // vivid's picture holds still between its moving parts) or, for MJPEG, corrupt; a frame whose decode
        // threw counts as failed alone. Slow decodes under qemu leave the mix to chance: count them all.
        let accounted = decoded + count("dropped") + count("skippedStatic") + count("corrupt")
        #expect(
            decoded >= 1 && accounted <= captured && accounted + count("failed") >= captured,
            "every frame is decoded, dropped, rested, corrupt or failed: \(stats)")

        // record, then replay: the camera's frames give the same codes through the same pipeline, every frame decoded.
        #expect(s.status["record"] == 0 && s.status["replay"] == 0, "\(s.lines["replay"] ?? [])")
        let replay = s.events("replay")
        #expect(Set(replay.filter { $0["class"] as? String == "SCAN" }.compactMap { $0["text"] as? String }) == ["inside-roi", "IN-ROI-128"])
        let replayStats = try #require(replay.last { $0["class"] as? String == "STATS" })
        #expect(replayStats["captured"] as? Int == 10 && replayStats["dropped"] as? Int == 0)

        // busy: another process streams from the camera; scand waits and says why.
        let busy = s.events("busy").first { $0["class"] as? String == "DEVICE" && $0["state"] as? String == "waiting" }
        #expect((busy?["message"] as? String)?.contains("device busy") == true, "\(s.lines["busy"] ?? [])")

        // unplug: scans, the camera is lost, comes back, scans again; scand never exits for it.
        #expect(s.status["unplug"] == 0)
        let unplug = s.events("unplug")
        let states = unplug.filter { $0["class"] as? String == "DEVICE" }.compactMap { $0["state"] as? String }
        #expect(states.first == "streaming" && states.contains("lost") && states.last == "stopped", "\(states)")
        let lostAt = try #require(unplug.firstIndex { $0["state"] as? String == "lost" })
        let backAt = try #require(unplug.indices.first { $0 > lostAt && unplug[$0]["state"] as? String == "streaming" }, "\(states)")
        #expect(unplug[..<lostAt].contains { $0["class"] as? String == "SCAN" })
        #expect(unplug[backAt...].contains { $0["class"] as? String == "SCAN" }, "scans resume after the camera returns")
        // [camera.controls]: brightness set at open, changed behind scand's back, set again after the replug;
        // contrast set live over the socket is set again after the replug too; brightness kept for restarts
        // is set at the next start, over the configuration's.
        let controlLines = s.lines["controls"] ?? []
        let applied = controlLines.filter { $0.hasPrefix("control ") }
        #expect(
            applied == [
                "control at-open 520 130", "control set-live 520 140", "control changed 400 100", "control after-replug 520 140",
                "control after-restart 450 140"
            ], "\(controlLines)")
        // The daemon's CONTROLS: vivid's controls with their values, nothing set over the socket yet.
        let listed = try #require(s.events("controls").first { $0["class"] as? String == "CONTROLS" }, "\(controlLines)")
        let live = (listed["controls"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "brightness" }
        #expect(listed["device"] as? String == "/dev/video0" && live?["value"] as? Int == 520 && (listed["set"] as? [Any])?.isEmpty == true)
        #expect(controlLines.contains("set live: contrast = 140") && controlLines.contains("set-status 0"), "\(controlLines)")
        #expect(controlLines.contains { $0.contains("camera control 'brightness': 999 is out of range; it takes 384…639") }, "\(controlLines)")
        #expect(controlLines.contains("refused-status 64") && controlLines.contains("keep-status 0"), "\(controlLines)")
        // A request the camera refuses halfway changes nothing: brightness (set first) is put back, so set-live
        // above reads 520, and the replug does not set 460 again.
        #expect(controlLines.contains("held-status 64"), "\(controlLines)")
        #expect(
            controlLines.contains {
                $0.contains("camera control 'enable_capture_cropping': the camera refused 0: Device or resource busy (busy: the driver holds it")
                    && $0.contains("; brightness put back as before")
            }, "\(controlLines)")
        #expect(controlLines.contains("kept for restarts: contrast = 140, brightness = 450"), "\(controlLines)")
        #expect(controlLines.contains("kept: [camera.controls]") && controlLines.contains("kept: brightness = 450"), "\(controlLines)")
        #expect(
            controlLines.contains {
                $0.hasPrefix("stderr: ") && $0.contains("camera controls contrast, brightness from /tmp/state/camera-controls.toml")
            })
    }
}
