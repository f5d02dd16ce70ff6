import CSTB
import Foundation
import ScandCore

/// Reads PNG, JPEG and binary PNM (PGM/PPM) files through stb_image (Debian's libstb).
public enum ImageFile {
    /// Larger images are refused before they are decoded: a hostile file must not exhaust memory.
    public static let maxPixels = 100_000_000

    public struct ReadError: Error, CustomStringConvertible, Equatable {
        public let path: String
        public let reason: String
        public var description: String { "cannot read '\(path)': \(reason)" }
    }

    /// stb_image reports failures through one global; calls are serialized.
    private static let lock = NSLock()

    /// The image as luminance.
    public static func readLuma(_ path: String) throws(ReadError) -> LumaImage {
        let (w, h, pixels) = try read(path, channels: 1)
        return LumaImage(width: w, height: h, pixels: pixels)
    }

    /// The image as RGB, 3 bytes a pixel.
    public static func readRGB(_ path: String) throws(ReadError) -> RGBImage {
        let (w, h, pixels) = try read(path, channels: 3)
        return RGBImage(width: w, height: h, pixels: pixels)
    }

    private static func read(_ path: String, channels: Int32) throws(ReadError) -> (Int, Int, [UInt8]) {
        try checkReadable(path)
        lock.lock()
        defer { lock.unlock() }
        var w: Int32 = 0, h: Int32 = 0, comp: Int32 = 0
        guard stbi_info(path, &w, &h, &comp) != 0 else {
            throw ReadError(path: path, reason: reason(String(cString: stbi_failure_reason()), ImageSignature(path: path)))
        }
        guard w > 0, h > 0 else { throw ReadError(path: path, reason: "corrupt image: it declares \(w)x\(h) pixels") }
        guard Int(w) * Int(h) <= maxPixels else { throw ReadError(path: path, reason: tooLarge(Int(w), Int(h))) }
        guard let data = stbi_load(path, &w, &h, &comp, channels) else {
            throw ReadError(path: path, reason: reason(String(cString: stbi_failure_reason()), nil))
        }
        defer { stbi_image_free(data) }
        let count = Int(w) * Int(h) * Int(channels)
        return (Int(w), Int(h), Array(UnsafeBufferPointer(start: data, count: count)))
    }

    private static func tooLarge(_ w: Int, _ h: Int) -> String {
        "image is \(w)x\(h), more than the \(maxPixels / 1_000_000) megapixels scand accepts"
    }

    /// Names the usual causes in words before stb_image gets a chance to say "can't fopen". Only regular
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
            guard let signature else { return "not a PNG, JPEG or binary PNM (PGM/PPM) image" }
            if let (w, h) = signature.declared, w * h > maxPixels { return tooLarge(w, h) }
            if let (w, h) = signature.declared, w <= 0 || h <= 0 { return "corrupt \(signature.format): it declares \(w)x\(h) pixels" }
            return "corrupt or unsupported \(signature.format) image"
        case "can't fopen": return "cannot open the file"
        default: return "corrupt or unsupported image (\(stb))"
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
