import Testing
@testable import ScandCore

@Suite struct GeometryTests {
    @Test func parsesAndMapsARectOfInterest() throws {
        let r = try NormalizedRect.parse("0.25,0.5,0.5,0.25")
        #expect(r.pixelRect(width: 1280, height: 720) == PixelRect(x: 320, y: 360, width: 640, height: 180))
        #expect(NormalizedRect.full.pixelRect(width: 7, height: 3) == PixelRect(x: 0, y: 0, width: 7, height: 3))
    }

    @Test func roundsOutwardAndKeepsAtLeastOnePixel() throws {
        let r = try NormalizedRect(x: 0.101, y: 0.101, width: 0.0001, height: 0.0001)
        let p = r.pixelRect(width: 100, height: 100)
        #expect(p.x == 10 && p.y == 10 && p.width >= 1 && p.height >= 1)
    }

    /// Issue 48, 7: a rect thinner than the 4 decimals the protocol keeps went out as width 0.
    @Test func aRectThinnerThanTheWireKeepsIsRefused() throws {
        for thin in ["0,0,0.00004,0.5", "0.2,0.2,0.5,0.00009", "0.99995,0,0.00005,1"] {
            #expect(throws: RectError("width and height must be at least 0.0001 (4 decimals are kept)"), "\(thin)") {
                try NormalizedRect.parse(thin)
            }
        }
        // Each edge on the grid: x and w rounded apart would end past 1 (0.9999 + 0.0002).
        #expect(try NormalizedRect(x: 0.99985, y: 0, width: 0.00015, height: 1).onWireGrid == [0.9999, 0, 0.0001, 1])
        #expect(try NormalizedRect(x: 0.00004, y: 0.5, width: 0.0001, height: 0.25).onWireGrid == [0, 0.5, 0.0001, 0.25])
    }

    @Test(arguments: ["0,0,0,1", "0.5,0.5,0.6,0.1", "-0.1,0,0.5,0.5", "1,0,0.1,0.1", "a,b,c,d", "0,0,1", "nan,0,1,1"])
    func refusesBadRects(_ text: String) {
        #expect(throws: RectError.self) { try NormalizedRect.parse(text) }
    }

    @Test func transformRoundTripsEveryOrientation() {
        let w = 640.0, h = 480.0
        let p = Point(100, 50)
        for rotation in FrameTransform.Rotation.allCases {
            for mirrored in [false, true] {
                let t = FrameTransform(rotation: rotation, mirrored: mirrored)
                let q = t.apply(p, width: w, height: h)
                let back = t.invert(q, width: w, height: h)
                #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9, "\(t)")
                let size = t.orientedSize(width: 640, height: 480)
                #expect(q.x >= 0 && q.x <= Double(size.width) && q.y >= 0 && q.y <= Double(size.height))
            }
        }
    }

    @Test func transformMovesCornersWhereTheyShould() {
        let t90 = FrameTransform(rotation: .quarter, mirrored: false)
        // Clockwise: the source's top-left corner ends at the top right.
        #expect(t90.apply(Point(0, 0), width: 640, height: 480) == Point(480, 0))
        let mirror = FrameTransform(rotation: .none, mirrored: true)
        #expect(mirror.apply(Point(10, 20), width: 640, height: 480) == Point(630, 20))
    }

    @Test func quadrilateralContainsAndOverlaps() {
        let q = Quadrilateral([Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)])
        #expect(q.contains(Point(5, 5)))
        #expect(!q.contains(Point(11, 5)))
        // Either winding.
        let ccw = Quadrilateral([Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)])
        #expect(ccw.contains(Point(5, 5)))
        let far = q.map { $0 + Point(100, 0) }
        #expect(!q.overlaps(far))
        #expect(q.overlaps(q.map { $0 + Point(3, 3) }))
        // A linear read along one row is a degenerate outline.
        let line = Quadrilateral([Point(0, 5), Point(10, 5), Point(10, 5), Point(0, 5)])
        #expect(line.contains(Point(5, 5)))
    }
}
