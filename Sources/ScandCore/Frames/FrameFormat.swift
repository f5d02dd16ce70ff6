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

    /// Whether `count` bytes hold a whole frame of this format. The format may come from outside (a
    /// recording's header, a driver): the arithmetic cannot trap, and a size it cannot hold is incomplete.
    public func isComplete(_ count: Int) -> Bool {
        if isCompressed { return count > 0 && count <= imageSize }
        guard let needed = bytesNeeded else { return false }
        return count >= needed
    }

    /// The bytes up to the last luma sample; nil when the format has none, or its sizes overflow.
    public var bytesNeeded: Int? {
        guard let layout = lumaLayout, width > 0, height > 0, bytesPerLine >= 0 else { return nil }
        let rows = (height - 1).multipliedReportingOverflow(by: bytesPerLine)
        let row = (width - 1).multipliedReportingOverflow(by: layout.pixelStride)
        guard !rows.overflow, !row.overflow else { return nil }
        let sum = rows.partialValue.addingReportingOverflow(row.partialValue)
        guard !sum.overflow, sum.partialValue <= Int.max - layout.offset - 1 else { return nil }
        return sum.partialValue + layout.offset + 1
    }

    /// The largest width or height scand takes from a camera or a recording.
    public static let maxSide = 16_384
    /// The largest frame scand takes: 512 MiB (a 16384x16384 YUYV frame).
    public static let maxBytes = 512 << 20

    /// Why frames of this format, told by a recording or a driver, cannot be taken (sizes out of range, a
    /// row longer than the frame, samples beyond its end); nil when they can.
    public var problem: String? {
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height) else {
            return "a size of \(width)x\(height) (1…\(Self.maxSide) each)"
        }
        guard (1...Self.maxBytes).contains(imageSize) else { return "frames of \(imageSize) bytes (1…\(Self.maxBytes))" }
        if isCompressed { return nil }
        guard (0...imageSize).contains(bytesPerLine) else { return "rows of \(bytesPerLine) bytes in frames of \(imageSize)" }
        guard lumaLayout != nil else { return "the pixel format \(fourcc), whose luma scand cannot read" }
        guard isComplete(imageSize) else { return "frames of \(imageSize) bytes, too few for \(width)x\(height) with rows of \(bytesPerLine)" }
        return nil
    }

    public var description: String { "\(fourcc) \(width)x\(height)" }
}
