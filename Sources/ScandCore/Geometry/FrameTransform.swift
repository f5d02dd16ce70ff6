/// Rotation and horizontal mirror applied to a camera frame before decoding (a front camera or a
/// camera mounted sideways). Maps points both ways between the source frame and the oriented one.
public struct FrameTransform: Sendable, Hashable {
    public enum Rotation: Int, Sendable, CaseIterable { case none = 0, quarter = 90, half = 180, threeQuarters = 270 }

    public var rotation: Rotation
    public var mirrored: Bool

    public static let identity = FrameTransform(rotation: .none, mirrored: false)

    public init(rotation: Rotation, mirrored: Bool) {
        self.rotation = rotation
        self.mirrored = mirrored
    }

    /// Size of the oriented frame for a source frame of `width`×`height`.
    public func orientedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        rotation == .quarter || rotation == .threeQuarters ? (height, width) : (width, height)
    }

    /// Source point → oriented point (clockwise rotation, then mirror), in continuous pixel
    /// coordinates where the frame spans 0…width.
    public func apply(_ p: Point, width w: Double, height h: Double) -> Point {
        var q: Point
        switch rotation {
        case .none: q = p
        case .quarter: q = Point(h - p.y, p.x)
        case .half: q = Point(w - p.x, h - p.y)
        case .threeQuarters: q = Point(p.y, w - p.x)
        }
        if mirrored {
            let ow = (rotation == .quarter || rotation == .threeQuarters) ? h : w
            q.x = ow - q.x
        }
        return q
    }

    /// Oriented point → source point; `w`×`h` is the source frame size.
    public func invert(_ q: Point, width w: Double, height h: Double) -> Point {
        var p = q
        if mirrored {
            let ow = (rotation == .quarter || rotation == .threeQuarters) ? h : w
            p.x = ow - p.x
        }
        switch rotation {
        case .none: return p
        case .quarter: return Point(p.y, h - p.x)
        case .half: return Point(w - p.x, h - p.y)
        case .threeQuarters: return Point(w - p.y, p.x)
        }
    }
}
