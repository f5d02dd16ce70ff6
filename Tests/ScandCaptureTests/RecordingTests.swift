import Foundation
import Testing
import ScandCore
import ScandTestSupport
import ScandRuntime
@testable import ScandCapture

@Suite struct RecordingTests {
    let dir = TestFiles.directory("scand-capture")

    func frames(_ n: Int) -> [Frame] {
        (0..<n).map { i in
            Frame.yuyv(LumaImage(width: 8, height: 4, fill: UInt8(i * 10)), sequence: UInt64(100 + i), timestampMicroseconds: UInt64(i) * 40_000)
        }
    }

    @Test func recordThenReplayGivesTheSameFrames() throws {
        let path = dir + "/r.rec"
        let input = frames(3)
        let writer = try Recording.Writer(path: path, format: input[0].format)
        for f in input { try writer.append(f) }
        try writer.finish()
        let replay = ReplaySource(path: path, pace: .flood)
        #expect(try replay.open() == input[0].format)
        for f in input {
            let got = try #require(try replay.nextFrame(timeoutMilliseconds: 100))
            #expect(got.bytes == f.bytes && got.sequence == f.sequence)
        }
        #expect(throws: CaptureError(.endOfStream, path: path)) { try replay.nextFrame(timeoutMilliseconds: 100) }
    }

    @Test func replayKeepsTheRecordedPace() throws {
        let path = dir + "/paced.rec"
        let input = frames(4)  // 40 ms apart: 120 ms from first to last
        let writer = try Recording.Writer(path: path, format: input[0].format)
        for f in input { try writer.append(f) }
        try writer.finish()
        let replay = ReplaySource(path: path)
        _ = try replay.open()
        let start = Monotonic.microseconds()
        for _ in input { _ = try replay.nextFrame(timeoutMilliseconds: 1000) }
        #expect(Monotonic.microseconds() - start >= 115_000)
    }

    @Test func rawRecordingsHaveNoHeader() throws {
        let path = dir + "/r.raw"
        let input = frames(2)
        let writer = try Recording.Writer(path: path, format: input[0].format, raw: true)
        for f in input { try writer.append(f) }
        try writer.finish()
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(Array(data) == input.flatMap(\.bytes))
    }

    @Test func malformedRecordingsAreRefusedWithTheReason() throws {
        let garbage = dir + "/garbage.rec"
        FileManager.default.createFile(atPath: garbage, contents: Data("hello".utf8))
        #expect(throws: CaptureError.self) { try ReplaySource(path: garbage).open() }
        #expect(Recording.parseHeader(#"SCANDREC1 {"pixelformat":"YUYV","width":-5,"height":2,"bytesPerLine":8,"imageSize":16}"#) == nil)
        #expect(Recording.parseHeader(#"SCANDREC1 {"pixelformat":"MJPG","width":4,"height":2,"bytesPerLine":8,"imageSize":16}"#) == nil)
        let f = FrameFormat.packed(.yuyv, width: 4, height: 2)
        #expect(Recording.parseHeader(Recording.header(f).trimmingCharacters(in: .newlines)) == f)
        // A header written by another tool: spaces, another key order, a key of its own.
        let spaced = #"SCANDREC1 { "width": 4, "height": 2, "note": "\"width\":9", "pixelformat": "YUYV", "imageSize": 16, "bytesPerLine": 8 }"#
        #expect(Recording.parseHeader(spaced) == f)
        #expect(Recording.parseHeader(#"SCANDREC1 {"pixelformat":"YUYV","width":4,"height":2}"#) == nil, "sizes missing")
        #expect(Recording.parseHeader(#"SCANDREC1 {"pixelformat":"YUYV","width":4.5,"height":2,"bytesPerLine":8,"imageSize":16}"#) == nil)
    }

    /// A recording cut short mid-frame says where it breaks off: the frame and its byte offset.
    @Test func aTruncatedRecordingSaysWhereItBreaksOff() throws {
        let f = FrameFormat.packed(.yuyv, width: 4, height: 2)
        let header = Array(Recording.header(f).utf8)
        let cut = dir + "/cut.rec"
        FileManager.default.createFile(
            atPath: cut, contents: Data(header + [UInt8](repeating: 0, count: 32) + [1, 2, 3] + [UInt8](repeating: 0, count: 16)))
        let replay = ReplaySource(path: cut, pace: .flood)
        _ = try replay.open()
        #expect(try replay.nextFrame(timeoutMilliseconds: 10) != nil)
        #expect { try replay.nextFrame(timeoutMilliseconds: 10) } throws: { e in
            let error = e as! CaptureError
            return error.kind == .truncatedRecording
                && error.description == "\(cut): the recording breaks off in frame 2 at byte \(header.count + 32): 3 of its 16 image bytes are there"
        }
    }

    /// A header declaring 256 MB frames over a file of a few bytes is refused at open, before anything that
    /// size is allocated.
    @Test func aHugeDeclaredFrameInAShortFileIsRefusedAtOpen() throws {
        let f = FrameFormat.packed(.grey, width: 16384, height: 16384)
        let path = dir + "/huge.rec"
        FileManager.default.createFile(atPath: path, contents: Data(Array(Recording.header(f).utf8) + [UInt8](repeating: 0, count: 100)))
        #expect { try ReplaySource(path: path).open() } throws: { e in
            let error = e as! CaptureError
            return error.kind == .truncatedRecording && error.description.contains("declares frames of 268435456 bytes, the file holds 100 after it")
        }
    }
}

/// Issue 31, 3 and 10: recordings from outside, and pipes whose writer stalls.
@Suite struct HostileRecordingTests {
    let dir = TestFiles.directory("scand-hostile")
    static let header = Array(#"SCANDREC1 {"pixelformat":"GREY","width":4,"height":2,"bytesPerLine":4,"imageSize":8}"#.utf8) + [0x0A]

    static func frame(stamp: UInt64, sequence: UInt64 = 0) -> [UInt8] {
        withUnsafeBytes(of: stamp.littleEndian) { Array($0) } + withUnsafeBytes(of: sequence.littleEndian) { Array($0) }
            + [UInt8](repeating: 0x80, count: 8)
    }

    @Test func headersWithSizesNearTwoToTheSixtyTwoAreMalformed() {
        for header in [
            #"SCANDREC1 {"pixelformat":"GREY","width":4,"height":4,"bytesPerLine":4611686018427387904,"imageSize":16}"#,
            #"SCANDREC1 {"pixelformat":"GREY","width":4,"height":2,"bytesPerLine":9223372036854775807,"imageSize":9223372036854775807}"#,
            #"SCANDREC1 {"pixelformat":"GREY","width":4,"height":2,"bytesPerLine":99999999999999999999,"imageSize":8}"#,
            #"SCANDREC2 {"pixelformat":"MJPG","width":4,"height":2,"bytesPerLine":0,"imageSize":9223372036854775807}"#
        ] {
            #expect(Recording.parseHeader(header) == nil, "\(header)")
        }
    }

    @Test func aFrameStampedBeyondTheRangeIsRefusedWhereItIsRead() throws {
        let path = dir + "/stamped.rec"
        FileManager.default.createFile(atPath: path, contents: Data(Self.header + Self.frame(stamp: 40_000) + Self.frame(stamp: UInt64.max - 1)))
        for pace in [ReplaySource.Pace.lockstep, .flood] {
            let replay = ReplaySource(path: path, pace: pace)
            _ = try replay.open()
            #expect(try replay.nextFrame(timeoutMilliseconds: 100) != nil)
            #expect { try replay.nextFrame(timeoutMilliseconds: 100) } throws: {
                let e = $0 as! CaptureError
                return e.kind == .badRecording
                    && e.description.contains("frame 2 at byte \(Self.header.count + 24) is stamped 18446744073709551614 µs")
            }
        }
    }

    /// A FIFO whose writer stalls mid-frame: each poll returns within its timeout with nothing, and the frame comes
    /// whole once the rest is written.
    @Test func aStalledPipeCostsATimeoutAndItsFrameComesWhenTheRestDoes() throws {
        let fifo = dir + "/replay.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened for reading and writing, so that this open does not wait for the reader's.
        let fd = open(fifo, O_RDWR)
        try #require(fd >= 0)
        let first = Self.header + Self.frame(stamp: 1000, sequence: 7).prefix(20)
        #expect(first.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == first.count)
        let replay = ReplaySource(path: fifo, pace: .lockstep)
        let format = try replay.open()
        #expect(format == FrameFormat.packed(.grey, width: 4, height: 2))
        for _ in 0..<3 { #expect(try replay.nextFrame(timeoutMilliseconds: 20) == nil) }
        let rest = Array(Self.frame(stamp: 1000, sequence: 7).dropFirst(20))
        #expect(rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == rest.count)
        let frame = try #require(try replay.nextFrame(timeoutMilliseconds: 1000))
        #expect(frame.sequence == 7 && frame.bytes == [UInt8](repeating: 0x80, count: 8))
        close(fd)
        #expect(throws: CaptureError(.endOfStream, path: fifo)) { try replay.nextFrame(timeoutMilliseconds: 1000) }
    }
}
