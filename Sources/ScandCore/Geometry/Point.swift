/// A point in pixels or in normalized (0…1) frame coordinates, depending on where it is used.
public struct Point: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public init(_ x: Double, _ y: Double) { self.init(x: x, y: y) }

    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }

    public func distance(to other: Point) -> Double {
        let d = self - other
        return (d.x * d.x + d.y * d.y).squareRoot()
    }

    public var description: String { "(\(x), \(y))" }
}
