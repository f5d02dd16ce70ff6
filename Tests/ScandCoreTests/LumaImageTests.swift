import Testing
@testable import ScandCore

@Suite struct LumaImageTests {
    @Test func invertMirrorAndPaste() {
        var img = LumaImage(width: 4, height: 2, pixels: [0, 10, 20, 30, 40, 50, 60, 70])
        #expect(img.inverted().pixels == [255, 245, 235, 225, 215, 205, 195, 185])
        #expect(img.mirrored().pixels == [30, 20, 10, 0, 70, 60, 50, 40])
        img.paste(LumaImage(width: 2, height: 2, fill: 1), x: 3, y: 1)
        #expect(img.pixels == [0, 10, 20, 30, 40, 50, 60, 1])
        #expect(LumaImage(width: 1, height: 1, fill: 9).scaled(by: 3).pixels == [UInt8](repeating: 9, count: 9))
    }

    @Test func rotatedPasteKeepsTheCentreAndTurnsClockwise() {
        // A dark top row rotated by 90° clockwise becomes a dark right column.
        var src = LumaImage(width: 5, height: 5, fill: 255)
        for x in 0..<5 { src[x, 0] = 0 }
        var dst = LumaImage(width: 5, height: 5, fill: 128)
        dst.paste(src, centerX: 2.5, centerY: 2.5, degrees: 90)
        for y in 0..<5 { #expect(dst[4, y] == 0) }
        #expect(dst[2, 2] == 255)
    }
}
