import Foundation
import Testing
import ScandCore
import ScandTestSupport
@testable import ScandCapture

/// MJPEG frames: recorded as the camera sends them (SCANDREC2), replayed, decoded to grey only when the
/// decoder takes them, and corrupt or cut-short ones counted and skipped.
@Suite struct MJPEGTests {
    let dir = TestFiles.directory("scand-mjpeg")

    /// A picture with structure (gradients and edges), so that JPEG's losses show if the decode is wrong.
    static func picture(width: Int = 64, height: Int = 48, seed: Int = 0) -> LumaImage {
        var image = LumaImage(width: width, height: height, fill: 0)
        for y in 0..<height {
            for x in 0..<width {
                image.pixels[y * width + x] = UInt8(truncatingIfNeeded: ((x + seed) / 8 + y / 8) % 2 == 0 ? 40 + x : 200 - y)
            }
        }
        return image
    }

    /// Every frame of `frames` through a hand-off, none dropped, as the decode loop takes them: what came out,
    /// and the hand-off's counters.
    static func takeAll(_ frames: [Frame]) async -> (frames: [Frame], counters: CaptureCounters) {
        let handOff = FrameHandOff()
        let producer = Task {
            for f in frames { await handOff.putWhenTaken(f) }
            handOff.finish()
        }
        var out: [Frame] = []
        for await frame in handOff.frames { out.append(frame) }
        await producer.value
        return (out, handOff.counters)
    }

    @Test func aJPEGFrameDecodesToItsGreyPicture() throws {
        let image = Self.picture()
        let frame = MJPEGEncoder(quality: 95).frame(image)
        #expect(frame.format.isCompressed && frame.format.fourcc == .mjpeg)
        let grey = try #require(FrameDecompression.grey(of: frame, with: MJPEGDecoder(), into: nil))
        #expect(grey.format == .packed(.grey, width: image.width, height: image.height))
        let worst = zip(grey.bytes, image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(worst <= 24, "JPEG at quality 95 keeps every pixel within a few levels, worst \(worst)")
    }
}

extension MJPEGTests {
    @Test func aRecordingKeepsTheCompressedFramesAndReplaysThem() async throws {
        let path = dir + "/mjpeg.rec"
        let encoder = MJPEGEncoder()
        let input = (0..<4).map { i in
            encoder.frame(Self.picture(seed: i), sequence: UInt64(7 + i), timestampMicroseconds: UInt64(i) * 33_333)
        }
        #expect(Set(input.map(\.byteCount)).count > 1, "frames of different sizes")
        let writer = try Recording.Writer(path: path, format: input[0].format)
        for f in input { try writer.append(f) }
        try writer.finish()
        let head = try #require(FileManager.default.contents(atPath: path)).prefix(10)
        #expect(String(decoding: head, as: UTF8.self) == "SCANDREC2 ")

        let replay = ReplaySource(path: path, pace: .flood)
        #expect(try replay.open() == input[0].format)
        var replayed: [Frame] = []
        while let f = try? replay.nextFrame(timeoutMilliseconds: 100) { replayed.append(f) }
        #expect(replayed.map(\.bytes) == input.map(\.bytes), "the JPEG bytes as recorded")
        #expect(replayed.map(\.sequence) == input.map(\.sequence))

        let (taken, counters) = await Self.takeAll(replayed)
        #expect(taken.map(\.format.fourcc) == Array(repeating: .grey, count: 4) && counters.corrupt == 0)
        for (got, i) in zip(taken, 0...) {
            let expected = try #require(FrameDecompression.grey(of: input[i], with: MJPEGDecoder(), into: nil))
            #expect(got.bytes == expected.bytes && got.sequence == input[i].sequence)
        }
    }

    @Test func aRecordingThatBreaksOffInsideAnMJPEGFrameSaysWhere() throws {
        let path = dir + "/cut.rec"
        let frame = MJPEGEncoder().frame(Self.picture())
        let writer = try Recording.Writer(path: path, format: frame.format)
        try writer.append(frame)
        try writer.append(frame)
        try writer.finish()
        let data = try #require(FileManager.default.contents(atPath: path))
        FileManager.default.createFile(atPath: path, contents: data.dropLast(10))
        let replay = ReplaySource(path: path, pace: .flood)
        _ = try replay.open()
        _ = try replay.nextFrame(timeoutMilliseconds: 100)
        let headerBytes = Recording.header(frame.format).utf8.count
        #expect(
            throws: CaptureError(
                .truncatedRecording, path: path,
                detail:
                    "in frame 2 at byte \(headerBytes + 20 + frame.byteCount): \(frame.byteCount - 10) of its \(frame.byteCount) image bytes are there"
            )
        ) { try replay.nextFrame(timeoutMilliseconds: 100) }
    }

    @Test func aFrameLengthBeyondTheHeadersMaximumIsRefused() throws {
        let path = dir + "/long.rec"
        let frame = MJPEGEncoder().frame(Self.picture())
        let writer = try Recording.Writer(path: path, format: frame.format)
        try writer.append(frame)
        try writer.finish()
        var data = Array(try #require(FileManager.default.contents(atPath: path)))
        let at = Recording.header(frame.format).utf8.count + 16
        data.replaceSubrange(at..<at + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        FileManager.default.createFile(atPath: path, contents: Data(data))
        let replay = ReplaySource(path: path, pace: .flood)
        _ = try replay.open()
        #expect { try replay.nextFrame(timeoutMilliseconds: 100) } throws: { e in
            (e as? CaptureError)?.kind == .badRecording && "\(e)".contains("declares 2147483647 bytes")
        }
    }

    /// Webcams send truncated and damaged JPEGs: each one the project generates and damages (cut short at any
    /// byte, bytes overwritten, markers swapped) either decodes or is counted as corrupt and skipped; none
    /// crashes or holds the stream up, and the good frames between them all come through.
    @Test func truncatedAndMutatedJPEGsAreCountedAndSkipped() async throws {
        let encoder = MJPEGEncoder(quality: 80)
        let good = (0..<4).map { encoder.frame(Self.picture(width: 96, height: 64, seed: $0)) }
        var random = SeededRandom(seed: 23)
        var frames: [Frame] = [], damaged = 0, cut = 0
        for i in 0..<1_200 {
            var f = good[i % good.count]
            if i % 4 == 3 {
                frames.append(f)  // a good frame between the damaged ones
                continue
            }
            var bytes = f.bytes
            switch random.below(3) {
            case 0:
                bytes = Array(bytes.prefix(random.below(bytes.count)))  // cut short, possibly to nothing
                cut += 1
            case 1:
                for _ in 0..<(1 + random.below(8)) { bytes[random.below(bytes.count)] = random.byte() }
            default:
                // A marker in the middle of the entropy-coded data, or one of the header's bytes flipped.
                let at = random.below(bytes.count - 1)
                bytes[at] = 0xFF
                bytes[at + 1] = [0xD8, 0xD9, 0xC4, 0xDB, 0xDA, 0x00, 0xFF][random.below(7)]
            }
            damaged += 1
            f.bytes = bytes
            frames.append(f)
        }
        let (taken, counters) = await Self.takeAll(frames)
        #expect(counters.taken == frames.count, "every frame was taken")
        #expect(taken.count + counters.corrupt == frames.count, "each either decoded or counted")
        #expect(counters.corrupt >= cut, "a frame cut short is corrupt: \(counters.corrupt) of \(damaged) damaged, \(cut) cut")
        #expect(taken.count >= 300, "the good frames come through")
        #expect(taken.allSatisfy { $0.format == .packed(.grey, width: 96, height: 64) && $0.byteCount == 96 * 64 })
    }

    @Test func aFrameOfAnotherSizeThanTheStreamsIsCorrupt() async {
        var frame = MJPEGEncoder().frame(Self.picture(width: 64, height: 48))
        frame.format = .compressed(.mjpeg, width: 32, height: 48, maxBytes: frame.format.imageSize)
        let (taken, counters) = await Self.takeAll([frame])
        #expect(taken.isEmpty && counters.corrupt == 1)
    }
}
