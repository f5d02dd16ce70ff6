import Foundation
import ScandCore
import ScandFiles
import ScandZXingShim

/// Reads PNG, JPEG, GIF (its first frame), BMP and binary PNM (PGM/PPM) files through stb_image (Debian's
/// libstb), WebP through libwebp and TIFF (its first page) through libtiff, all in a sandboxed decoder
/// process: they assert or worse on some hostile files, and that must cost the file, not scand's process.
public enum ImageFile {
    /// Larger images are refused before they are decoded: a hostile file must not exhaust memory.
    public static let maxPixels = 100_000_000
    /// Larger files are refused before they are read: 128 MiB holds a greyscale PNM of `maxPixels`, and
    /// any PNG or JPEG of a scene with codes many times over.
    public static let maxFileBytes = 128 << 20
    /// A file that takes longer than this to decode is given up on (its decoder process is killed).
    public static let timeoutSeconds = 30

    public struct ReadError: Error, CustomStringConvertible, Equatable {
        public let path: String
        public let reason: String
        public var description: String { "cannot read '\(path)': \(reason)" }
    }

    /// The image as luminance.
    public static func readLuma(_ path: String) throws(ReadError) -> LumaImage {
        try decodeLuma([(path, try contents(path))])[0].get()
    }

    /// The image as RGB, 3 bytes a pixel.
    public static func readRGB(_ path: String) throws(ReadError) -> RGBImage {
        let (w, h, pixels) = try decode([(path, try contents(path))], channels: 3)[0].get()
        return RGBImage(width: w, height: h, pixels: pixels)
    }

    /// Files already in memory, each named by `path` for its error, decoded as luminance by one child (a
    /// crash or overrun costs one file; the next child goes on with the rest).
    public static func decodeLuma(_ files: [(path: String, bytes: [UInt8])]) -> [Result<LumaImage, ReadError>] {
        decode(files, channels: 1).map { $0.map { LumaImage(width: $0.0, height: $0.1, pixels: $0.2) } }
    }

    private static func decode(_ files: [(path: String, bytes: [UInt8])], channels: Int32) -> [Result<(Int, Int, [UInt8]), ReadError>] {
        var decoded = [szx_decoded](repeating: szx_decoded(), count: files.count)
        let status: Int32 = withPointers(files.map(\.bytes)) { encoded in
            szx_decode_images(encoded, Int32(files.count), channels, Int64(maxPixels), Int32(timeoutSeconds * 1000), &decoded)
        }
        defer { for d in decoded { szx_free(d.pixels) } }
        return files.indices.map { i in
            let path = files[i].path
            // What scand does not offer is not handed to stb_image, which would try (TGA has no signature).
            guard ImageSignature(files[i].bytes) != nil else {
                return .failure(ReadError(path: path, reason: "not a \(ImageSignature.readable) image"))
            }
            guard status == SZX_OK.rawValue else { return .failure(ReadError(path: path, reason: "cannot start the image decoder")) }
            let d = decoded[i]
            let (w, h) = (Int(d.width), Int(d.height))
            switch (szx_status(UInt32(d.outcome.status)), szx_image_refusal(UInt32(d.refusal))) {
            case (SZX_OK, SZX_IMAGE_DECODED):
                return .success((w, h, Array(UnsafeBufferPointer(start: d.pixels, count: w * h * Int(channels)))))
            case (SZX_OK, SZX_IMAGE_EMPTY):
                return .failure(ReadError(path: path, reason: "corrupt image: it declares \(w)x\(h) pixels"))
            case (SZX_OK, SZX_IMAGE_TOO_LARGE):
                return .failure(ReadError(path: path, reason: tooLarge(w, h)))
            case (SZX_OK, _):
                return .failure(ReadError(path: path, reason: reason(message(d.outcome), ImageSignature(files[i].bytes))))
            case (SZX_CRASHED, _):
                return .failure(ReadError(path: path, reason: "crashed (signal \(d.outcome.signal)) while decoding the image: \(message(d.outcome))"))
            case (SZX_TIMEOUT, _):
                return .failure(ReadError(path: path, reason: "took longer than \(timeoutSeconds) s to decode"))
            default:
                return .failure(ReadError(path: path, reason: "the image decoder failed: \(message(d.outcome))"))
            }
        }
    }

    /// The outcome's message on one line: stb_image quotes bytes of the file in some (a PNG chunk's type).
    private static func message(_ o: szx_outcome) -> String {
        withUnsafeBytes(of: o.message) { raw in
            raw.prefix { $0 != 0 }.map { $0 < 0x20 || $0 >= 0x7F ? String(format: "\\x%02X", $0) : String(UnicodeScalar($0)) }.joined()
        }
    }

    /// Every file's bytes laid end to end, and pointers into them, valid while `body` runs.
    private static func withPointers<R>(_ buffers: [[UInt8]], _ body: (UnsafePointer<szx_encoded>) -> R) -> R {
        // One file (`scand scan`'s way) is used where it lies: no second copy of up to `maxFileBytes`.
        if buffers.count == 1 {
            return buffers[0].withUnsafeBufferPointer { b in
                var encoded = szx_encoded(data: b.baseAddress, size: b.count)
                return body(&encoded)
            }
        }
        let joined = buffers.flatMap { $0 }
        return joined.withUnsafeBufferPointer { all in
            var at = 0
            let encoded = buffers.map { b in
                defer { at += b.count }
                return szx_encoded(data: all.baseAddress.map { $0 + at }, size: b.count)
            }
            return encoded.withUnsafeBufferPointer { body($0.baseAddress ?? UnsafePointer(bitPattern: 8)!) }
        }
    }

    /// The file's bytes, after the checks that name the usual causes in words.
    private static func contents(_ path: String) throws(ReadError) -> [UInt8] {
        try checkReadable(path)
        do { return try BoundedFile.read(path, maxBytes: maxFileBytes) } catch {
            throw ReadError(path: path, reason: error.kind == .tooLarge ? "\(error.reason): not an image scand reads" : error.reason)
        }
    }

    private static func tooLarge(_ w: Int, _ h: Int) -> String {
        "image is \(w)x\(h), more than the \(maxPixels / 1_000_000) megapixels scand accepts"
    }

    /// Names the usual causes in words before the file is read. Only regular
    /// files are images: a FIFO would block and /dev/zero never ends (and both have no size to check).
    private static func checkReadable(_ path: String) throws(ReadError) {
        var st = stat()
        guard stat(path, &st) == 0 else { throw ReadError(path: path, reason: String(cString: strerror(errno)).lowercased()) }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ReadError(path: path, reason: "is a directory")
        case S_IFIFO: throw ReadError(path: path, reason: "is a FIFO (named pipe), not an image file")
        case S_IFCHR, S_IFBLK: throw ReadError(path: path, reason: "is a device, not an image file")
        default: throw ReadError(path: path, reason: "is not a regular file")
        }
        guard access(path, R_OK) == 0 else { throw ReadError(path: path, reason: String(cString: strerror(errno)).lowercased()) }
        if st.st_size == 0 { throw ReadError(path: path, reason: "file is empty") }
    }

    /// stb_image's reason in words; when it gave up on the file's type, the file's own signature says more.
    private static func reason(_ stb: String, _ signature: ImageSignature?) -> String {
        switch stb {
        case "unknown image type":
            guard let signature else { return "not a \(ImageSignature.readable) image" }
            if let (w, h) = signature.declared, w <= 0 || h <= 0 { return "corrupt \(signature.format): it declares \(w)x\(h) pixels" }
            // Divided, not multiplied: a hostile header's numbers overflow a product.
            if let (w, h) = signature.declared, w > maxPixels / h { return tooLarge(w, h) }
            return "corrupt or unsupported \(signature.format) image"
        default:
            // libwebp's and libtiff's own words (scand_image_webp_tiff.cpp) name the format already.
            if let signature, ["WebP", "TIFF"].contains(signature.format) { return stb }
            return "corrupt or unsupported image (\(stb))"
        }
    }
}

/// An RGB image, 3 bytes a pixel, densely packed: the canvas of `--annotate`.
public struct RGBImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "pixel count must be width*height*3")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(_ luma: LumaImage) {
        var p = [UInt8](repeating: 0, count: luma.pixels.count * 3)
        for (i, v) in luma.pixels.enumerated() {
            p[3 * i] = v
            p[3 * i + 1] = v
            p[3 * i + 2] = v
        }
        self.init(width: luma.width, height: luma.height, pixels: p)
    }

    public subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
