import Foundation
import FuzzSupport
import ScandCapture
import ScandCore

// A recording played back as `scand run --source replay:FILE` plays it: its SCANDREC1 or SCANDREC2 header, then
// frames read by ReplaySource (at the lockstep pace: no waits), captured as luma as the daemon captures them
// into its decoder's memory, compressed ones decoded by MJPEGDecoder. A bad file is refused in one line; a
// file of a few kilobytes never makes the reader hold hundreds of megabytes.

func seeds() -> [Fuzz.Seed] {
    let luma = LumaImage(width: 16, height: 8, pixels: (0..<128).map { UInt8(truncatingIfNeeded: $0 * 7) })
    let yuyv = (0..<3).map { Frame.yuyv(luma, sequence: UInt64($0), timestampMicroseconds: 1_000_000 + UInt64($0) * 33_333) }
    let grey = yuyv.map {
        Frame(
            format: .packed(.grey, width: 16, height: 8), bytes: luma.pixels, sequence: $0.sequence, timestampMicroseconds: $0.timestampMicroseconds)
    }
    let encoder = MJPEGEncoder()
    let mjpeg = (0..<2).map { encoder.frame(luma, sequence: UInt64($0), timestampMicroseconds: UInt64($0) * 40_000) }
    return [("yuyv", yuyv), ("grey", grey), ("mjpeg", mjpeg), ("yuyv-header-only", [])].map { name, frames in
        let format = frames.first?.format ?? yuyv[0].format
        let path = Fuzz.file(holding: [], suffix: ".seed")
        do {
            let writer = try Recording.Writer(path: path, format: format)
            for frame in frames { try writer.append(frame) }
            try writer.finish()
        } catch {
            Fuzz.fail("cannot write the seed recording \(name): \(error)")
        }
        return (name: name, bytes: Array(FileManager.default.contents(atPath: path) ?? Data()))
    }
}

/// Memory for a frame's luma, as the decoder's shared memory is lent to the capture.
private final class Memory: FrameMemory, @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer
    init(_ count: Int) { bytes = .allocate(byteCount: count, alignment: 16) }
    deinit { bytes.deallocate() }
}

nonisolated(unsafe) let decoder = MJPEGDecoder()

func test(_ input: [UInt8]) {
    let path = Fuzz.file(holding: input, suffix: ".scandrec")
    let source = ReplaySource(path: path, pace: .lockstep)
    source.captureLuma { Memory($0) }
    do {
        let format = try source.open()
        for _ in 0..<8 {
            guard let frame = try source.nextFrame(timeoutMilliseconds: 100) else { continue }
            if format.isCompressed {
                let (w, h) = (format.width, format.height)
                var pixels = [UInt8](repeating: 0, count: w * h)
                let failure = frame.withUnsafeBytes { jpeg in
                    pixels.withUnsafeMutableBytes { decoder.decodeGrey(jpeg, width: w, height: h, into: $0) }
                }
                if let failure { Fuzz.requireOneLine(failure) }
            } else {
                Fuzz.require(frame.luma() != nil, "a frame of \(frame.byteCount) bytes in \(frame.format) whose luma cannot be read")
            }
        }
    } catch {
        Fuzz.requireOneLine(error.description)
    }
    source.close()
    Fuzz.requirePeakMemory(below: 384)
}

Fuzz.run(seeds: seeds, test: test)
