/// Where a linear code's bars lie, in the code's own frame: along its reading direction and across it.
/// zxing reports a linear read as the thin box of the scan lines that agreed, so two reads of one code on
/// lines far apart have distant centres but the same extent along the code; that extent is what tells one
/// code from another. (The still strategy's second looks work in this frame too: `BarsSpan+Still`.)
public struct BarsSpan: Sendable {
    /// Unit vector of the reading direction, and the one across it (towards the code's bottom).
    public var along: Point
    public var across: Point
    public var start: Double, end: Double
    public var top: Double, bottom: Double

    public var length: Double { end - start }
    public var middle: Double { (top + bottom) / 2 }

    /// The span of `q` in the reading direction of `reference` (its top-left to top-right, averaged with the
    /// bottom edge; the x axis for an outline without length); `q`'s own without one.
    public init(_ q: Quadrilateral, axisOf reference: Quadrilateral? = nil) {
        let r = reference ?? q
        self.init(q, along: (r.topRight - r.topLeft) + (r.bottomRight - r.bottomLeft))
    }

    /// The span of `q` along the direction `d`.
    public init(_ q: Quadrilateral, along d: Point) {
        let norm = (d.x * d.x + d.y * d.y).squareRoot()
        along = norm > 0 ? d * (1 / norm) : Point(1, 0)
        across = Point(-along.y, along.x)
        let along = along, across = across
        let a = q.corners.map { $0.x * along.x + $0.y * along.y }, c = q.corners.map { $0.x * across.x + $0.y * across.y }
        (start, end, top, bottom) = (a.min() ?? 0, a.max() ?? 0, c.min() ?? 0, c.max() ?? 0)
    }

    /// The image point at `a` along the reading direction and `c` across it.
    public func point(_ a: Double, _ c: Double) -> Point { along * a + across * c }

    /// Centres apart along the code, and the gap between the two spans across it (negative: they overlap).
    public func distances(to other: BarsSpan) -> (along: Double, acrossGap: Double) {
        (abs((start + end) / 2 - (other.start + other.end) / 2), max(top - other.bottom, other.top - bottom))
    }

    /// Two reads of the same frame cover the same bars: along the code they overlap by more than half of the
    /// shorter read, and across it they lie within about a code's length (EAN/UPC bars are 0.7–0.8 of it tall;
    /// reads of different codes stacked one above the other are further apart unless the labels touch).
    public func sameBars(as other: BarsSpan) -> Bool {
        let overlap = min(end, other.end) - max(start, other.start)
        let longer = max(length, other.length)
        return overlap > min(length, other.length) / 2 && distances(to: other).acrossGap <= longer
    }

    /// A read in a later frame is this code, moved: along the code no further than today's tolerance for any
    /// symbol (one and a half lengths and 8 px), across it within a length.
    public func follows(_ other: BarsSpan) -> Bool {
        let longer = max(length, other.length), d = distances(to: other)
        return d.along <= longer * 1.5 + 8 && d.acrossGap <= longer + 8
    }

    /// The outline around both spans, in this span's frame.
    public func union(_ other: BarsSpan) -> Quadrilateral {
        let s = min(start, other.start), e = max(end, other.end), t = min(top, other.top), b = max(bottom, other.bottom)
        return Quadrilateral([point(s, t), point(e, t), point(e, b), point(s, b)])
    }
}
