import Foundation
import Testing
import ScandTestSupport

extension DaemonReliabilityTests {
    @Test func aTruncatedRecordingEndsTheReplayWithOneLine() throws {
        let path = try e2e.recording(seconds: 2, name: "cut.rec")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size - 1000)) == 0)
        let daemon = try DaemonProcess(["run", "--socket", "none", "--replay-pace", "fast", "--source", "replay:" + path])
        #expect(daemon.finish(seconds: 20) == 1)
        let lines = daemon.stderr.filter { $0.contains("breaks off") }
        #expect(lines.count == 1 && lines[0].contains("cut.rec: the recording breaks off in frame 60 at byte"), "\(daemon.stderr)")
        #expect(daemon.stdout.filter { $0.contains(#""state":"streaming""#) }.count == 1, "never reopened")
    }
}
