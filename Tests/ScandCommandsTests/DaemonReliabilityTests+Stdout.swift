import Foundation
import Testing
import ScandTestSupport

extension DaemonReliabilityTests {
    @Test func aStdoutNobodyReadsStallsNothing() throws {
        let sock = dir + "/stuck.sock"
        let config = e2e.write("[socket]\nqueue_limit = 16\n", "stuck.toml")
        let daemon = try DaemonProcess(
            [
                "run", "--config", config, "--socket", sock, "--update-interval", "0.001",
                "--source", "replay:" + (try e2e.recording(seconds: 30, name: "stuck.rec"))
            ], stdoutUnread: true)
        #expect(daemon.wait { daemon.stderr.contains { $0.contains("stdout is not being read") } }, "\(daemon.stderr)")
        #expect(daemon.stderr.filter { $0.contains("stdout is not being read") }.count == 1, "logged once")
        // The socket still answers, and counts what stdout missed.
        let line = try #require(status(sock))
        #expect((number("stdoutDropped", in: line) ?? 0) > 0 && (number("decoded", in: line) ?? 0) > 0, "\(line)")
        let asked = Date()
        daemon.signal(SIGTERM)
        #expect(daemon.finish(seconds: 10) == 0)
        #expect(Date().timeIntervalSince(asked) < 5, "SIGTERM still stops it")
    }
}
