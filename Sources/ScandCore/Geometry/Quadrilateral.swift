/// The outline of a symbol: top-left, top-right, bottom-right, bottom-left as the symbol reads
/// (so a code upside down has its top-left at the bottom right of the image).
public struct Quadrilateral: Sendable, Hashable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    public init(_ points: [Point]) {
        precondition(points.count == 4, "a quadrilateral has four corners")
        self.init(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
    }

    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    public var center: Point {
        Point(
            (topLeft.x + topRight.x + bottomRight.x + bottomLeft.x) / 4,
            (topLeft.y + topRight.y + bottomRight.y + bottomLeft.y) / 4)
    }

    public func map(_ transform: (Point) -> Point) -> Quadrilateral {
        Quadrilateral(corners.map(transform))
    }

    /// Axis-aligned bounds as (minX, minY, maxX, maxY).
    public var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
    }

    /// Length of the longer diagonal: a size scale for "is this the same symbol" decisions.
    public var diagonal: Double { max(topLeft.distance(to: bottomRight), topRight.distance(to: bottomLeft)) }

    /// True when `p` lies inside or on the outline. Works for either winding; a degenerate outline
    /// (a linear code read along one line) contains only points on its segments' bounding box.
    public func contains(_ p: Point) -> Bool {
        var sign = 0.0
        let c = corners
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        if sign == 0 {
            let b = bounds
            return p.x >= b.minX && p.x <= b.maxX && p.y >= b.minY && p.y <= b.maxY
        }
        return true
    }

    /// Whether two outlines describe the same place: one's centre lies in the other, or the centres are
    /// closer than half the smaller symbol (linear codes are often reported as a thin line).
    public func overlaps(_ other: Quadrilateral) -> Bool {
        if contains(other.center) || other.contains(center) { return true }
        let reach = max(4, min(diagonal, other.diagonal) / 2)
        return center.distance(to: other.center) < reach
    }
}
