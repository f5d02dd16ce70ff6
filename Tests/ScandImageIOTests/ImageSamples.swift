import ScandTestSupport
import CSTB
import CWebP
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

    /// libwebp's lossless WebP of the grey image (as RGB): decoded, each pixel's grey comes back exactly.
    static func webp(_ image: LumaImage) -> [UInt8] {
        let rgb = image.pixels.flatMap { [$0, $0, $0] }
        var output: UnsafeMutablePointer<UInt8>?
        let size = rgb.withUnsafeBufferPointer {
            WebPEncodeLosslessRGB($0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 3), &output)
        }
        precondition(size > 0, "libwebp could not encode the sample")
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// A baseline TIFF, written here: little- or big-endian, 8-bit grey or RGB (the grey repeated),
    /// uncompressed, one strip.
    static func tiff(_ image: LumaImage, rgb: Bool = false, bigEndian: Bool = false) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? (u16(v >> 16) + u16(v & 0xFFFF)) : (u16(v & 0xFFFF) + u16(v >> 16)) }
        let samples = rgb ? image.pixels.flatMap { [$0, $0, $0] } : image.pixels
        let channels = rgb ? 3 : 1
        // Header (8), then the pixels, then BitsPerSample's three values for RGB, then the IFD.
        let pixelsAt = 8, bitsAt = pixelsAt + samples.count, ifdAt = bitsAt + 6
        // Tag, type (3 SHORT, 4 LONG), count, value (or, for three SHORTs, where they are).
        var entries: [(Int, Int, Int, Int)] = [
            (256, 4, 1, image.width), (257, 4, 1, image.height), (258, 3, channels, rgb ? bitsAt : 8), (259, 3, 1, 1),
            (262, 3, 1, rgb ? 2 : 1), (273, 4, 1, pixelsAt), (277, 3, 1, channels), (278, 4, 1, image.height), (279, 4, 1, samples.count)
        ]
        entries.sort { $0.0 < $1.0 }
        var bytes: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(ifdAt) + samples
        bytes += u16(8) + u16(8) + u16(8)
        bytes += u16(entries.count)
        for (tag, type, count, value) in entries {
            bytes += u16(tag) + u16(type) + u32(count)
            // A SHORT value sits in the first two of the four bytes.
            bytes += type == 3 && count == 1 ? u16(value) + u16(0) : u32(value)
        }
        return bytes + u32(0)
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
