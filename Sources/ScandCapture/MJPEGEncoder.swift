import CTurboJPEG
import ScandCore

/// Encodes grey pictures as the JPEG frames a webcam's MJPEG stream holds (YCbCr, 4:2:2, neutral chroma):
/// for generated MJPEG recordings (`scand synth --pixel-format MJPG`), tests and benchmarks.
public final class MJPEGEncoder {
    private let handle: tjhandle
    public let quality: Int

    public init(quality: Int = 85) {
        guard let handle = tjInitCompress() else { fatalError("tjInitCompress: \(String(cString: tjGetErrorStr()))") }
        self.handle = handle
        self.quality = quality
    }

    deinit { tjDestroy(handle) }

    /// The JPEG of `luma`, its chroma planes flat grey.
    public func encode(_ luma: LumaImage) -> [UInt8] {
        let w = luma.width, h = luma.height, chromaWidth = (w + 1) / 2
        let chroma = [UInt8](repeating: 128, count: chromaWidth * h)
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let r = luma.pixels.withUnsafeBufferPointer { y in
            chroma.withUnsafeBufferPointer { c in
                var planes: [UnsafePointer<UInt8>?] = [y.baseAddress, c.baseAddress, c.baseAddress]
                var strides: [Int32] = [Int32(w), Int32(chromaWidth), Int32(chromaWidth)]
                return tjCompressFromYUVPlanes(
                    handle, &planes, Int32(w), &strides, Int32(h), Int32(TJSAMP_422.rawValue), &jpeg, &size, Int32(quality), 0)
            }
        }
        defer { tjFree(jpeg) }
        guard r == 0, let jpeg else { fatalError("tjCompressFromYUVPlanes: \(String(cString: tjGetErrorStr2(handle)))") }
        return Array(UnsafeBufferPointer(start: jpeg, count: Int(size)))
    }

    /// An MJPEG frame of `luma`.
    public func frame(_ luma: LumaImage, sequence: UInt64 = 0, timestampMicroseconds: UInt64 = 0) -> Frame {
        Frame(
            format: .compressed(.mjpeg, width: luma.width, height: luma.height, maxBytes: Self.maxBytes(width: luma.width, height: luma.height)),
            bytes: encode(luma), sequence: sequence, timestampMicroseconds: timestampMicroseconds)
    }

    /// The largest frame a `width`×`height` MJPEG stream may hold: what libjpeg-turbo's worst case allows
    /// (tjBufSize), as recordings declare it.
    public static func maxBytes(width: Int, height: Int) -> Int {
        Int(tjBufSize(Int32(width), Int32(height), Int32(TJSAMP_422.rawValue)))
    }
}
