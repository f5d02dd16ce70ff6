/// One captured frame: its bytes as the camera delivered them (one copy out of the driver's buffer).
public struct Frame: Sendable {
    public var format: FrameFormat
    public var bytes: [UInt8]
    /// The driver's frame counter; gaps mean frames the driver itself dropped.
    public var sequence: UInt64
    /// Capture time, microseconds on the monotonic clock (CLOCK_MONOTONIC, as V4L2 stamps buffers).
    public var timestampMicroseconds: UInt64

    public init(format: FrameFormat, bytes: [UInt8], sequence: UInt64, timestampMicroseconds: UInt64) {
        self.format = format
        self.bytes = bytes
        self.sequence = sequence
        self.timestampMicroseconds = timestampMicroseconds
    }

    /// The luma plane as a dense image (a copy), for orientation changes and tests.
    public func luma() -> LumaImage? {
        guard let layout = format.lumaLayout, format.isComplete(bytes.count) else { return nil }
        var pixels = [UInt8](repeating: 0, count: format.width * format.height)
        for y in 0..<format.height {
            let row = y * format.bytesPerLine + layout.offset
            for x in 0..<format.width { pixels[y * format.width + x] = bytes[row + x * layout.pixelStride] }
        }
        return LumaImage(width: format.width, height: format.height, pixels: pixels)
    }

    /// A YUYV frame with the given luma and neutral chroma: what generated test frames look like.
    public static func yuyv(_ luma: LumaImage, sequence: UInt64 = 0, timestampMicroseconds: UInt64 = 0) -> Frame {
        var bytes = [UInt8](repeating: 128, count: luma.width * luma.height * 2)
        for i in 0..<luma.pixels.count { bytes[2 * i] = luma.pixels[i] }
        return Frame(format: .packed(.yuyv, width: luma.width, height: luma.height), bytes: bytes, sequence: sequence,
                     timestampMicroseconds: timestampMicroseconds)
    }
}
