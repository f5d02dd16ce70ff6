/// An integer rectangle in pixels.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    /// The middle, in pixel coordinates.
    public var center: Point { Point(Double(x + width / 2), Double(y + height / 2)) }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    public func contains(_ p: Point) -> Bool {
        p.x >= Double(x) && p.x < Double(maxX) && p.y >= Double(y) && p.y < Double(maxY)
    }

    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y)
        let x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
