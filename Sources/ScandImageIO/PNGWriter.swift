import CSTB
import Foundation
import ScandCore

/// Writes PNG files through stb_image_write.
public enum PNGWriter {
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "cannot write '\(path)': \(String(cString: strerror(errno)).lowercased())" }
    }

    public static func write(_ image: LumaImage, to path: String) throws(WriteError) {
        try write(path, image.width, image.height, 1, image.pixels)
    }

    public static func write(_ image: RGBImage, to path: String) throws(WriteError) {
        try write(path, image.width, image.height, 3, image.pixels)
    }

    private static func write(_ path: String, _ w: Int, _ h: Int, _ comp: Int32, _ pixels: [UInt8]) throws(WriteError) {
        errno = 0
        let ok = pixels.withUnsafeBytes { stbi_write_png(path, Int32(w), Int32(h), comp, $0.baseAddress, Int32(w) * comp) }
        if ok == 0 {
            if errno == 0 { errno = EIO }
            throw WriteError(path: path)
        }
    }
}
