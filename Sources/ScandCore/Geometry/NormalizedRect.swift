/// A rectangle in normalized frame coordinates (0…1 of width and height), as a rect of interest.
public struct NormalizedRect: Sendable, Hashable, CustomStringConvertible {
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double

    public static let full = NormalizedRect(uncheckedX: 0, y: 0, width: 1, height: 1)

    /// Decimals a rect keeps on the socket, the web API and in STATUS: a tenth of a pixel at 1080p.
    public static let wirePlaces = 4
    /// The least width and height, one step of `wirePlaces`: a thinner rect went out as width 0, which no
    /// client (nor the daemon, after a restart) reads back.
    public static let minimumExtent = 0.0001

    private init(uncheckedX x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Refuses rectangles that are empty, not finite or reach outside 0…1.
    public init(x: Double, y: Double, width: Double, height: Double) throws(RectError) {
        for v in [x, y, width, height] where !v.isFinite { throw RectError("values must be finite numbers") }
        guard x >= 0, y >= 0, x < 1, y < 1 else { throw RectError("x and y must lie in 0…1") }
        guard width > 0, height > 0 else { throw RectError("width and height must be greater than 0") }
        let eps = 1e-9
        guard x + width <= 1 + eps, y + height <= 1 + eps else { throw RectError("x+w and y+h must not exceed 1") }
        let (w, h) = (min(width, 1 - x), min(height, 1 - y))
        guard w >= Self.minimumExtent - eps, h >= Self.minimumExtent - eps else {
            throw RectError("width and height must be at least \(Self.minimumExtent) (4 decimals are kept)")
        }
        self.init(uncheckedX: x, y: y, width: w, height: h)
    }

    /// x, y, width and height on the grid of `wirePlaces` decimals, each edge rounded rather than each
    /// number: read back, the rect still ends within 1 and keeps a step of width and height.
    public var onWireGrid: [Double] {
        let scale = 10_000.0  // 10^wirePlaces
        let (x0, y0) = ((x * scale).rounded(), (y * scale).rounded())
        let (x1, y1) = (((x + width) * scale).rounded(), ((y + height) * scale).rounded())
        return [x0 / scale, y0 / scale, max(1, x1 - x0) / scale, max(1, y1 - y0) / scale]
    }

    /// Parses "x,y,w,h".
    public static func parse(_ text: String) throws(RectError) -> NormalizedRect {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else { throw RectError("expected four numbers x,y,w,h, got '\(text)'") }
        var values: [Double] = []
        for p in parts {
            guard let v = Double(p.trimmedSpaces()) else {
                throw RectError("'\(p)' is not a number")
            }
            values.append(v)
        }
        // 25,25,50,50: percent, where fractions of the frame are asked for.
        if values.contains(where: { $0 > 1 }), values.allSatisfy({ $0 >= 0 && $0 <= 100 }) {
            let fractions = values.map { v in v == 0 || v == 100 ? "\(Int(v / 100))" : "\(v / 100)" }.joined(separator: ",")
            throw RectError("x,y,w,h are fractions of the frame, 0…1, not percent: for \(text) percent write \(fractions)")
        }
        return try NormalizedRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// The pixels this rectangle covers in a `width`×`height` frame: edges rounded outward, at least
    /// one pixel, clamped to the frame.
    public func pixelRect(width w: Int, height h: Int) -> PixelRect {
        let x0 = Int((x * Double(w)).rounded(.down)), y0 = Int((y * Double(h)).rounded(.down))
        let x1 = Int(((x + width) * Double(w)).rounded(.up)), y1 = Int(((y + height) * Double(h)).rounded(.up))
        let cx0 = min(max(0, x0), w - 1), cy0 = min(max(0, y0), h - 1)
        return PixelRect(x: cx0, y: cy0, width: max(1, min(w, x1) - cx0), height: max(1, min(h, y1) - cy0))
    }

    public func contains(_ p: Point) -> Bool {
        p.x >= x && p.x <= x + width && p.y >= y && p.y <= y + height
    }

    public var description: String { "\(x),\(y),\(width),\(height)" }
}
