import Foundation
import ScandTestSupport
import Testing

extension DaemonEndToEndTests {
    /// Started without stdin and stdout (`scand run <&- >&-`), scand holds /dev/null there: the descriptors it
    /// opens next (the decoder processes' frame memory, the recording) do not take those numbers, its events
    /// are not written into them, and a decoder process is not handed /dev/null for a frame buffer.
    @Test func startedWithoutStdinAndStdoutItHoldsDevNullThereAndDecodes() throws {
        let path = try recording(seconds: 3, name: "closed-streams.rec")
        let daemon = try DaemonProcess(
            ["run", "--socket", "none", "--replay-pace", "recorded", "--source", "replay:" + path], withoutStdinAndStdout: true)
        let pid = daemon.process.pid
        // Decoding has begun once a decoder process runs.
        #expect(daemon.wait { Self.children(of: pid) > 0 }, "\(daemon.stderr)")
        let held = (0...1).map { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "closed" }
        #expect(held == ["/dev/null", "/dev/null"])
        #expect(daemon.finish() == 0, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("scand: end of recording"), "\(daemon.stderr)")
        #expect(!daemon.stderr.contains { $0.contains("scand-decoder") }, "\(daemon.stderr)")
    }

    /// How many processes have `parent` as their parent.
    static func children(of parent: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).count { entry in
            guard pid_t(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 1
            else { return false }
            return pid_t(fields[1]) == parent
        }
    }
}
