import Foundation
import Testing
import ScandTestSupport

extension DaemonReliabilityTests {
    @Test func aReloadKeepsCaptureUnlessTheCameraChangesAndARefusedOneIsNeverReloaded() throws {
        let sock = dir + "/reload.sock"
        let config = e2e.write("[decoding]\nformats = [\"QRCode\"]\n", "reload2.toml")
        let daemon = try DaemonProcess([
            "run", "--config", config, "--socket", sock, "--source", "replay:" + (try e2e.recording(seconds: 30, name: "reload2.rec"))
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
}
