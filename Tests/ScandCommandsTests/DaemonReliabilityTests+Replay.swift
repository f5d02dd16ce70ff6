import Foundation
import Testing
import ScandTestSupport

extension DaemonReliabilityTests {
    @Test func aTruncatedRecordingEndsTheReplayWithOneLine() throws {
        let path = try e2e.recording(seconds: 2, name: "cut.rec")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size - 1000)) == 0)
        let daemon = try DaemonProcess(["run", "--socket", "none", "--replay-pace", "lockstep", "--source", "replay:" + path])
        #expect(daemon.finish(seconds: 20) == 65)
        let lines = daemon.stderr.filter { $0.contains("breaks off") }
        #expect(lines.count == 1 && lines[0].contains("cut.rec: the recording breaks off in frame 60 at byte"), "\(daemon.stderr)")
        #expect(daemon.stdout.filter { $0.contains(#""state":"streaming""#) }.count == 1, "never reopened")
    }
}

/// Issue 31, 3 and 10: recordings that crashed the daemon, swelled it, or held its SIGTERM.
extension DaemonReliabilityTests {
    /// A recording of grey 4x2 frames, with `header` for a header and frames stamped `stamp`.
    func hostileRecording(_ name: String, header: String? = nil, stamp: UInt64 = 40_000, frames: Int = 3) -> String {
        let path = dir + "/" + name
        var bytes = Array((header ?? #"SCANDREC1 {"pixelformat":"GREY","width":4,"height":2,"bytesPerLine":4,"imageSize":8}"#).utf8) + [0x0A]
        for i in 0..<frames {
            bytes += withUnsafeBytes(of: (stamp &+ UInt64(i)).littleEndian) { Array($0) } + withUnsafeBytes(of: UInt64(i).littleEndian) { Array($0) }
            bytes += [UInt8](repeating: 0x80, count: 8)
        }
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test func aRowLengthNearTwoToTheSixtyTwoIsAMalformedHeaderNotACrash() throws {
        let path = hostileRecording(
            "bpl.rec", header: #"SCANDREC1 {"pixelformat":"GREY","width":4,"height":4,"bytesPerLine":4611686018427387904,"imageSize":16}"#)
        let daemon = try DaemonProcess(["run", "--socket", "none", "--replay-pace", "lockstep", "--source", "replay:" + path])
        #expect(daemon.finish(seconds: 20) == 65, "\(daemon.stderr)")
        #expect(daemon.stderr.contains { $0.contains("bpl.rec") && $0.contains("malformed SCANDREC1 or SCANDREC2 header") }, "\(daemon.stderr)")
    }

    @Test(arguments: ["lockstep", "recorded"])
    func framesStampedNearTwoToTheSixtyFourEndTheReplayWithOneLine(pace: String) throws {
        let path = hostileRecording("stamps-\(pace).rec", stamp: UInt64.max - 1)
        let daemon = try DaemonProcess(["run", "--socket", "none", "--replay-pace", pace, "--source", "replay:" + path])
        #expect(daemon.finish(seconds: 20) == 65, "\(daemon.stderr)")
        let lines = daemon.stderr.filter { $0.contains("is stamped") }
        #expect(lines.count == 1 && lines[0].contains("frame 1 at byte"), "\(daemon.stderr)")
    }

    /// A 1 KB SCANDREC2 file declaring a 500 MiB frame: the daemon allocated all of it before reading a byte.
    /// Under a data limit of 400 MB (the daemon needs a tenth of it) it is now refused in one line.
    @Test func aSmallRecordingDeclaringAHugeFrameIsNotAllocated() throws {
        let path = dir + "/declares.rec"
        var bytes = Array(#"SCANDREC2 {"pixelformat":"MJPG","width":1280,"height":720,"bytesPerLine":0,"imageSize":536870912}"#.utf8) + [0x0A]
        bytes += [UInt8](repeating: 0, count: 16) + withUnsafeBytes(of: UInt32(500 << 20).littleEndian) { Array($0) }
        bytes += [UInt8](repeating: 0xFF, count: 1000)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let daemon = try DaemonProcess(
            ["--data=400000000", ScandBinary.path, "run", "--socket", "none", "--replay-pace", "lockstep", "--source", "replay:" + path],
            executable: "/usr/bin/prlimit")
        #expect(daemon.finish(seconds: 20) == 65, "\(daemon.stderr)")
        #expect(
            daemon.stderr.contains { $0.contains("breaks off in frame 1") && $0.contains("1000 of its 524288000 image bytes") }, "\(daemon.stderr)")
    }

    /// A FIFO whose writer sent the header and part of a frame, then stalled: the capture thread blocked in
    /// fread, and SIGTERM went unanswered. It now ends the daemon as promptly as with a camera.
    @Test func aStalledReplayPipeDoesNotHoldUpSIGTERM() throws {
        let fifo = dir + "/stalled.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened for reading and writing, so that this open does not wait for the daemon's.
        let writer = open(fifo, O_RDWR)
        try #require(writer >= 0)
        defer { close(writer) }
        let header = Array(#"SCANDREC1 {"pixelformat":"GREY","width":4,"height":2,"bytesPerLine":4,"imageSize":8}"#.utf8) + [0x0A]
        var frame = withUnsafeBytes(of: UInt64(40_000).littleEndian) { Array($0) } + [UInt8](repeating: 0, count: 8)
        frame += [UInt8](repeating: 0x80, count: 8)
        let sent = (header + frame + frame.prefix(5)).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        #expect(sent == header.count + frame.count + 5)
        let daemon = try DaemonProcess(["run", "--socket", "none", "--source", "replay:" + fifo])
        #expect(daemon.wait { daemon.stdout.contains { $0.contains(#""state":"streaming""#) } }, "\(daemon.stdout) \(daemon.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish(seconds: 10) == 0, "\(daemon.stderr)")
    }
}
