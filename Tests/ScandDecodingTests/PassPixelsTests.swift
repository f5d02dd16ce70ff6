import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

/// The shim's full-size passes that copy (inverted, mirrored) read the pixels they should, from a frame's
/// luma in place (YUYV: every other byte) as from a dense image: the copy is not the box filter's any more.
@Suite struct PassPixelsTests {
    /// `image`'s pixels as a YUYV frame's luma, with chroma bytes that would read as noise if taken.
    static func interleaved(_ image: LumaImage) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: image.pixels.count * 2)
        for (i, v) in image.pixels.enumerated() { (bytes[2 * i], bytes[2 * i + 1]) = (v, UInt8(truncatingIfNeeded: i &* 37)) }
        return bytes
    }

    static func reads(_ image: LumaImage, crop: PixelRect, invert: Bool, mirror: Bool) throws -> [Detection] {
        var p = DecodePass(label: "copy", crop: crop, formats: BarcodeFormats(.qrCode))
        (p.invert, p.mirror) = (invert, mirror)
        let bytes = interleaved(image)
        return try bytes.withUnsafeBytes {
            try ZXingDecoder(isolated: false).decode(
                LumaView($0, width: image.width, height: image.height, rowStride: image.width * 2, pixelStride: 2), passes: [p]
            ).detections
        }
    }

    @Test func anInvertedMirroredCropReadsTheCodeWhereItIs() throws {
        let code = Scene.symbol(.qrCode, "turned back", module: 4).inverted().mirrored()
        let page = Scene.page(width: 400, height: 300, background: 30, [(code, x: 230, y: 160, degrees: 0)])
        // A crop off the origin, so that rows and columns are both offset.
        let crop = PixelRect(x: 90, y: 40, width: 290, height: 240)
        let read = try #require(try Self.reads(page, crop: crop, invert: true, mirror: true).first)
        #expect(read.text == "turned back")
        // zxing saw it the right way round (a copy that did not mirror would show it mirrored to zxing, and the
        // pass's mirror would turn that into "not mirrored"), where it is on the page.
        #expect(read.mirrored && read.inverted)
        #expect(read.corners.center.distance(to: Point(230, 160)) < 4, "\(read.corners)")
        #expect(try Self.reads(page, crop: crop, invert: false, mirror: true).isEmpty, "light on dark, it reads only inverted")
    }
}
