import CSTB
import ScandCore

/// Encodes images as JPEG in memory through stb_image_write: previews of the camera.
public enum JPEGEncoder {
    /// - Parameter quality: 1…100.
    public static func encode(_ image: LumaImage, quality: Int = 75) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        _ = image.pixels.withUnsafeBytes { pixels in
            stbi_write_jpg_to_func(
                { context, data, size in
                    guard let context, let data, size > 0 else { return }
                    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
                    sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: Int(size)))
                }, context, Int32(image.width), Int32(image.height), 1, pixels.baseAddress, Int32(min(100, max(1, quality))))
        }
        return withExtendedLifetime(sink) { sink.bytes }
    }
}
