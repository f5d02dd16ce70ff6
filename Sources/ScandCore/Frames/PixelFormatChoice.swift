/// Which pixel format scand captures in, from what a camera offers at the asked size: a raw format (YUYV
/// first, see `FourCC.preferred`) when the camera sends one natively at the asked rate, else MJPEG when the
/// camera sends that natively at a better rate (most USB webcams deliver their useful sizes at full rate only
/// as MJPEG), which scand decodes to grey itself. Pure: the V4L2 side gathers the offers.
public struct PixelFormatChoice: Sendable, Equatable, CustomStringConvertible {
    /// One format the camera lists, with its frame rates at the asked size (nil: not offered at that size).
    public struct Offer: Sendable, Equatable {
        public var fourcc: FourCC
        /// Converted by libv4lconvert rather than sent by the camera.
        public var emulated: Bool
        public var framesPerSecond: [Double]?

        public init(fourcc: FourCC, emulated: Bool, framesPerSecond: [Double]?) {
            self.fourcc = fourcc
            self.emulated = emulated
            self.framesPerSecond = framesPerSecond
        }

        var bestRate: Double? { framesPerSecond?.max() }
    }

    public var fourcc: FourCC
    /// Why, in words: "MJPG: 30 fps at 1920x1080, YUYV only 5".
    public var reason: String

    public var description: String { "\(fourcc) (\(reason))" }

    /// The format to capture `width`×`height` at `framesPerSecond` (nil: the highest the camera offers) in;
    /// `override` (the configuration's `pixel_format`) wins when the camera offers it. nil when nothing usable
    /// is offered.
    public static func choose(
        from offers: [Offer], width: Int, height: Int, framesPerSecond: Int?, override: FourCC? = nil
    ) -> PixelFormatChoice? {
        let size = "\(width)x\(height)"
        if let override {
            guard offers.contains(where: { $0.fourcc == override }), override.isCompressed || FourCC.preferred.contains(override) else {
                return nil
            }
            return PixelFormatChoice(fourcc: override, reason: "pixel_format in the configuration")
        }
        let raw = FourCC.preferred.lazy.compactMap { f in offers.first { $0.fourcc == f && !$0.emulated } }.first
        let mjpeg = offers.first { $0.fourcc == .mjpeg && !$0.emulated }
        if let mjpeg, let mjpegRate = mjpeg.bestRate {
            let wanted = min(Double(framesPerSecond ?? Int.max), mjpegRate)
            // Half a frame a second of slack: 29.97 is 30.
            if let raw, let rawRate = raw.bestRate, rawRate + 0.5 >= wanted {
                return PixelFormatChoice(fourcc: raw.fourcc, reason: "\(rate(rawRate)) fps at \(size)")
            }
            let others = raw.map { r in r.bestRate.map { ", \(r.fourcc) only \(rate($0))" } ?? ", \(r.fourcc) not at this size" } ?? ""
            return PixelFormatChoice(fourcc: .mjpeg, reason: "\(rate(mjpegRate)) fps at \(size)\(others)")
        }
        if let raw {
            return PixelFormatChoice(fourcc: raw.fourcc, reason: raw.bestRate.map { "\(rate($0)) fps at \(size)" } ?? "sent by the camera")
        }
        if let mjpeg {
            return PixelFormatChoice(fourcc: mjpeg.fourcc, reason: "the camera's only format scand reads natively")
        }
        // Formats libv4lconvert makes from others the camera sends (neither raw nor MJPEG natively).
        if let emulated = FourCC.preferred.lazy.compactMap({ f in offers.first { $0.fourcc == f } }).first {
            return PixelFormatChoice(fourcc: emulated.fourcc, reason: "converted by libv4lconvert")
        }
        return nil
    }

    private static func rate(_ r: Double) -> String {
        r == r.rounded() ? String(Int(r)) : String((r * 100).rounded() / 100)
    }
}
