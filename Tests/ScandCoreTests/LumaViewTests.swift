import Testing
@testable import ScandCore

/// A frame's luma read in place reads the same pixels as the image it was made from, whatever its strides.
@Suite struct LumaViewTests {
    static let image = LumaImage(width: 4, height: 3, pixels: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110])

    @Test func aYUYVFrameShowsTheSamePixelsAsItsImage() throws {
        let frame = Frame.yuyv(Self.image)
        let read = try #require(frame.withLumaView { luma in (luma.pixelStride, (0..<12).map { luma[$0 % 4, $0 / 4] }) })
        #expect(read.0 == 2)
        #expect(read.1 == Self.image.pixels)
        #expect(frame.withLumaView { LumaImage($0) } == Self.image)
        #expect(Self.image.withView { LumaImage($0) } == Self.image)
    }

    @Test func samplesBilinearlyInsideAndNothingOutside() {
        Self.image.withView { luma in
            #expect(luma.sample(0, 0) == 0)
            #expect(luma.sample(3, 2) == 110)
            #expect(luma.sample(0.5, 0) == 5)
            #expect(luma.sample(1.5, 0.5) == 35)
            #expect(luma.sample(-0.1, 0) == nil)
            #expect(luma.sample(3.1, 0) == nil)
            #expect(luma.pixelOrWhite(0, 3) == 255)
        }
    }

    @Test func aFrameWithoutAllItsLumaHasNoView() {
        let short = Frame(format: .packed(.yuyv, width: 4, height: 3), bytes: [UInt8](repeating: 0, count: 8), sequence: 0, timestampMicroseconds: 0)
        #expect(short.withLumaView { _ in true } == nil)
    }
}
