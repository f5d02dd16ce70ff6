import Foundation
import Testing
import ScandTestSupport

extension DaemonReliabilityTests {
    @Test func aReloadKeepsCaptureUnlessTheCameraChangesAndARefusedOneIsNeverReloaded() throws {
        let sock = dir + "/reload.sock"
        let config = e2e.write("[decoding]\nformats = [\"QRCode\"]\n", "reload2.toml")
        let daemon = try DaemonProcess([
            "run", "--config", config, "--socket", sock, "--source", "replay:" + (try e2e.recording(seconds: 30, name: "reload2.rec", fps: 10))
        ])
        #expect(daemon.wait { daemon.stdout.contains { $0.contains(#""class":"SCAN""#) } })
        // A CRLF file with a typo on line 2 is refused, never "reloaded".
        _ = e2e.write("[decoding]\r\nformat = [\"Code128\"]\r\n", "reload2.toml")
        daemon.signal(SIGHUP)
        #expect(daemon.wait { daemon.stderr.contains { $0.contains("reload refused") } })
        #expect(daemon.stderr.contains { $0.contains("reload2.toml: line 2: unknown key 'format' in [decoding]") }, "\(daemon.stderr)")
        #expect(!daemon.stderr.contains { $0.contains("configuration reloaded") })
        // Decoding settings only: capture goes on, counters too.
        let before = number("captured", in: try #require(status(sock))) ?? 0
        _ = e2e.write("[decoding]\r\nformats = [\"Code128\"]\r\n", "reload2.toml")
        let mark = daemon.stdout.count
        daemon.signal(SIGHUP)
        #expect(daemon.wait { daemon.stderr.contains { $0.contains("configuration reloaded; capture continues") } }, "\(daemon.stderr)")
        #expect(daemon.wait { daemon.stdout.dropFirst(mark).contains { $0.contains(#""class":"SCAN""#) && $0.contains(#""format":"Code128""#) } })
        #expect(!daemon.stdout.dropFirst(mark).contains { $0.contains(#""class":"DEVICE""#) }, "capture was not restarted")
        #expect((number("captured", in: try #require(status(sock))) ?? 0) > before, "counters were not reset")
        // A new size restarts the camera, and the DEVICE events say so.
        _ = e2e.write("[camera]\nsize = \"640x480\"\n", "reload2.toml")
        let mark2 = daemon.stdout.count
        daemon.signal(SIGHUP)
        #expect(daemon.wait { daemon.stdout.dropFirst(mark2).contains { $0.contains(#""state":"streaming""#) } })
        let device = daemon.stdout.dropFirst(mark2).filter { $0.contains(#""class":"DEVICE""#) }
        #expect(
            device.first?.contains(#""state":"stopped","message":"restarting for the new configuration: size 1280x720 → 640x480""#) == true,
            "\(device)")
        #expect(!device.contains { $0.contains("shutting down") })
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// A reload names each changed setting it does not apply; a configuration replaced by a FIFO is refused
    /// at once instead of blocking the reload, and SIGTERM still stops the daemon.
    @Test func aReloadNamesWhatNeedsARestartAndNeverBlocksOnAFIFO() throws {
        let sock = dir + "/reload3.sock"
        let config = e2e.write("[decoding]\nformats = [\"QRCode\"]\n", "reload3.toml")
        let daemon = try DaemonProcess(
            ["run", "--config", config, "--socket", sock, "--source", "replay:" + (try e2e.recording(seconds: 30, name: "reload3.rec", fps: 10))],
            environment: ["STATE_DIRECTORY": ""])
        #expect(daemon.wait { daemon.stdout.contains { $0.contains(#""class":"SCAN""#) } })
        _ = e2e.write(
            "[decoding]\nformats = [\"QRCode\"]\n[socket]\nmax_clients = 3\n[journal]\nmax_events = 50\n[service]\nstate_directory = \"\(dir)/elsewhere\"\n",
            "reload3.toml")
        daemon.signal(SIGHUP)
        #expect(daemon.wait { daemon.stderr.contains { $0.contains("configuration reloaded") } }, "\(daemon.stderr)")
        let line = daemon.stderr.first { $0.contains("configuration reloaded") } ?? ""
        #expect(line.contains("capture continues; not applied, these need a restart: "), "\(line)")
        #expect(line.contains("[socket] max_clients 64 → 3") && line.contains("[journal] max_events 100000 → 50"), "\(line)")
        #expect(line.contains("[service] state_directory \"\" → \(dir)/elsewhere"), "\(line)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/elsewhere"), "the state directory was not switched")
        // A FIFO in the file's place: refused at once, not waited on.
        try FileManager.default.removeItem(atPath: config)
        #expect(mkfifo(config, 0o600) == 0)
        daemon.signal(SIGHUP)
        #expect(daemon.wait { daemon.stderr.contains { $0.contains("reload refused") && $0.contains("it is a FIFO") } }, "\(daemon.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish(seconds: 15) == 0)
    }
}
