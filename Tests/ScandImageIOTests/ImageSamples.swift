import ScandTestSupport
import CSTB
import Foundation
import ScandCore
@testable import ScandImageIO

/// Image files the tests make themselves: a pattern with edges and gradients, encoded as PNG (through
/// PNGWriter), JPEG (stb_image_write) and binary PNM, and seeded mutations of their bytes.
enum ImageSamples {
    static func pattern(width: Int, height: Int) -> LumaImage {
        LumaImage(
            width: width, height: height,
            pixels: (0..<width * height).map { i in
                let (x, y) = (i % width, i / width)
                return (x / 6 + y / 6) % 2 == 0 ? UInt8((x * 255) / max(width - 1, 1)) : UInt8(255 - (y * 200) / max(height - 1, 1))
            })
    }

    static func png(_ image: LumaImage, in dir: String) throws -> [UInt8] {
        let path = dir + "/sample-\(image.width)x\(image.height).png"
        try PNGWriter.write(image, to: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// stb_image_write's baseline JPEG, `components` 1 (grey) or 3 (colour, the grey repeated).
    static func jpeg(_ image: LumaImage, components: Int32, quality: Int32) -> [UInt8] {
        let samples = components == 1 ? image.pixels : image.pixels.flatMap { [$0, $0 &+ 40, $0 &- 40] }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let ok = samples.withUnsafeBytes { raw in
            stbi_write_jpg_to_func(
                { context, data, size in
                    let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
                    sink.bytes += UnsafeRawBufferPointer(start: data, count: Int(size))
                }, Unmanaged.passUnretained(sink).toOpaque(), Int32(image.width), Int32(image.height), components, raw.baseAddress, quality)
        }
        precondition(ok != 0, "stb_image_write could not encode the sample")
        return sink.bytes
    }

    static func pgm(_ image: LumaImage) -> [UInt8] {
        Array("P5\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }

    static func ppm(_ image: LumaImage) -> [UInt8] {
        Array("P6\n# scand\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels.flatMap { [$0, 255 - $0, $0 / 2] }
    }
}

/// A file's bytes changed the ways that break decoders: bit flips, bytes set to boundary values, runs copied
/// over other places (a length field copied into data, markers into entropy data), bytes inserted, the tail cut.
struct ImageMutator {
    static let boundaries: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF, 0xC0, 0xC4, 0xD8, 0xD9, 0xDA, 0xDB, 0xDD]

    static func mutate(_ original: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        var b = original
        for _ in 0...rng.below(3) {
            guard !b.isEmpty else { break }
            switch rng.below(6) {
            case 0:
                for _ in 0...rng.below(4) { b[rng.below(b.count)] ^= 1 << UInt8(rng.below(8)) }
            case 1:
                for _ in 0...rng.below(3) { b[rng.below(b.count)] = boundaries[rng.below(boundaries.count)] }
            case 2:
                for _ in 0...rng.below(4) { b[rng.below(b.count)] = rng.byte() }
            case 3:
                let from = rng.below(b.count), to = rng.below(b.count), n = min(1 + rng.below(16), b.count - max(from, to))
                b.replaceSubrange(to..<to + n, with: b[from..<from + n])
            case 4:
                b.insert(contentsOf: (0...rng.below(8)).map { _ in rng.byte() }, at: rng.below(b.count))
            default:
                b.removeLast(rng.below(min(b.count, 64)) + 1)
            }
        }
        return b
    }
}
