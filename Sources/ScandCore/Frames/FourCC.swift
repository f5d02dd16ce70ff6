/// A V4L2 pixel format code ("YUYV", "MJPG", …).
public struct FourCC: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ text: String) {
        let b = Array(text.utf8) + [32, 32, 32, 32]
        self.rawValue = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }

    public var description: String {
        let bytes = (0..<4).map { UInt8((rawValue >> (8 * $0)) & 0xFF) }
        return String(decoding: bytes.map { (32...126).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            .trimmedSpaces()
    }

    public static let yuyv = FourCC("YUYV")
    public static let uyvy = FourCC("UYVY")
    public static let grey = FourCC("GREY")
    public static let nv12 = FourCC("NV12")
    public static let nv21 = FourCC("NV21")
    public static let yu12 = FourCC("YU12")
    public static let yv12 = FourCC("YV12")
    public static let mjpeg = FourCC("MJPG")
    public static let jpeg = FourCC("JPEG")

    /// A compressed format: frames vary in size and are decoded to grey before the decoder sees them.
    public var isCompressed: Bool { self == .mjpeg || self == .jpeg }

    /// Formats scand decodes from directly, best first: each has its luma as 8-bit samples at a fixed stride.
    public static let preferred: [FourCC] = [.yuyv, .grey, .nv12, .yu12, .nv21, .yv12, .uyvy]
}
