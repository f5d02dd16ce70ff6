import Foundation
import Testing
import ScandCore
@testable import ScandCapture

@Suite struct RecordingTests {
    let dir: String = {
        let d = NSTemporaryDirectory() + "scand-capture-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

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
