/// The shape of a frame's bytes and where its luma (Y) samples are.
public struct FrameFormat: Sendable, Hashable, CustomStringConvertible {
    public var fourcc: FourCC
    public var width: Int
    public var height: Int
    /// Bytes from one row to the next (of the luma plane for planar formats).
    public var bytesPerLine: Int
    /// Bytes of one whole frame.
    public var imageSize: Int

    public init(fourcc: FourCC, width: Int, height: Int, bytesPerLine: Int, imageSize: Int) {
        self.fourcc = fourcc
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.imageSize = imageSize
    }

    /// A packed YUYV or GREY frame with no row padding.
    public static func packed(_ fourcc: FourCC, width: Int, height: Int) -> FrameFormat {
        let bpp = fourcc == .grey ? 1 : 2
        return FrameFormat(fourcc: fourcc, width: width, height: height, bytesPerLine: width * bpp, imageSize: width * height * bpp)
    }

    /// A compressed frame (MJPEG) of at most `maxBytes`: its size varies from frame to frame, and its luma is
    /// there only once it is decoded.
    public static func compressed(_ fourcc: FourCC, width: Int, height: Int, maxBytes: Int) -> FrameFormat {
        FrameFormat(fourcc: fourcc, width: width, height: height, bytesPerLine: 0, imageSize: maxBytes)
    }

    /// Whether frames hold a compressed picture of varying size (MJPEG, JPEG) rather than samples.
    public var isCompressed: Bool { fourcc.isCompressed }

    /// Where the Y samples are: first sample's byte offset and the distance between samples in a row.
    /// nil for formats scand cannot read the luma of in place.
    public var lumaLayout: (offset: Int, pixelStride: Int)? {
        switch fourcc {
        case .yuyv: (0, 2)
        case .uyvy: (1, 2)
        case .grey, .nv12, .nv21, .yu12, .yv12: (0, 1)
        default: nil
        }
    }

    /// Whether `count` bytes hold a whole frame of this format.
    public func isComplete(_ count: Int) -> Bool {
        if isCompressed { return count > 0 && count <= imageSize }
        guard let layout = lumaLayout, width > 0, height > 0 else { return false }
        let needed = (height - 1) * bytesPerLine + layout.offset + (width - 1) * layout.pixelStride + 1
        return count >= needed
    }

    public var description: String { "\(fourcc) \(width)x\(height)" }
}
