/// A rectangle in normalized frame coordinates (0…1 of width and height), as a rect of interest.
public struct NormalizedRect: Sendable, Hashable, CustomStringConvertible {
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double

    public static let full = NormalizedRect(uncheckedX: 0, y: 0, width: 1, height: 1)

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
        self.init(uncheckedX: x, y: y, width: min(width, 1 - x), height: min(height, 1 - y))
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
