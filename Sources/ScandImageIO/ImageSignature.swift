import Foundation

/// What a file's first bytes say it is, and the size its header declares: only these formats are decoded
/// (stb_image reads more, which scand does not offer), and a file refused gets the right reason (a PNG
/// declaring 100000x100000 is too large, not "not a PNG").
struct ImageSignature {
    var format: String
    /// Width and height as the header declares them, when it is read this far.
    var declared: (width: Int, height: Int)?

    /// The formats scand reads, as its help and errors name them.
    static let readable = "PNG, JPEG, GIF, BMP, PNM (PGM/PPM), WebP or TIFF"

    /// nil when the bytes start like none of the formats scand reads.
    init?(_ bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            format = "PNG"
            // 8-byte signature, then the IHDR chunk: length, "IHDR", width and height big-endian.
            if bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) {
                func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
                declared = (be32(16), be32(20))
            }
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = "JPEG"
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            format = "GIF"
            if bytes.count >= 10 { declared = (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8) }
        } else if bytes.starts(with: Array("BM".utf8)), bytes.count >= 26 {
            format = "BMP"
        } else if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 12, bytes[8..<12].elementsEqual("WEBP".utf8) {
            format = "WebP"
        } else if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || bytes.starts(with: [0x49, 0x49, 0x2B, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
        {
            format = "TIFF"
        } else if bytes.starts(with: Array("P5".utf8)) || bytes.starts(with: Array("P6".utf8)) {
            format = "PNM"
            // "P5 <width> <height> …", whitespace-separated, comments (#…) skipped.
            var fields: [Substring] = []
            for line in String(decoding: bytes.prefix(256), as: UTF8.self).split(separator: "\n") {
                let content: Substring = line.prefix { $0 != "#" }
                fields += content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            }
            if fields.count >= 3, let w = Int(fields[1]), let h = Int(fields[2]) { declared = (w, h) }
        } else {
            return nil
        }
    }
}
