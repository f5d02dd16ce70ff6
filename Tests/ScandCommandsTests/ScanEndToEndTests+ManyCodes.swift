import Foundation
import ScandCore
import ScandImageIO
import ScandTestSupport
import Testing

/// Issue 48, 6: an image of 500 codes printed 255 of them and exited 0, as if it had been read whole.
@Suite struct ScanManyCodesEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()

    /// `columns`×`rows` QR codes, each its own text, pasted pixel for pixel.
    func grid(columns: Int, rows: Int, name: String) throws -> String {
        let pitch = 90
        var items: [(LumaImage, x: Int, y: Int)] = []
        for row in 0..<rows {
            for column in 0..<columns {
                items.append(
                    (Scene.symbol(.qrCode, "c\(row * columns + column)", module: 3), x: pitch / 2 + column * pitch, y: pitch / 2 + row * pitch))
            }
        }
        let path = dir + "/" + name
        try PNGWriter.write(Scene.page(width: columns * pitch, height: rows * pitch, background: 255, centred: items), to: path)
        return path
    }

    @Test func asManyCodesAsOnePassReturnsIsOneLineAndStatusOne() throws {
        let path = try grid(columns: 20, rows: 20, name: "400.png")
        let r = try ScandBinary.run(["scan", "--raw", "--formats", "qr", path])
        #expect(r.lines.count >= 255, "\(r.stderr)")
        let said = r.stderr.split(separator: "\n").filter { $0.contains("the image may hold more") }
        #expect(said.count == 1, "\(r.stderr)")
        #expect(r.status == 1, "the image was not read whole")
    }

    @Test func fewerCodesAreAWholeRead() throws {
        let path = try grid(columns: 10, rows: 10, name: "100.png")
        let r = try ScandBinary.run(["scan", "--raw", "--formats", "qr", path])
        #expect(r.status == 0 && Set(r.lines).count == 100, "\(r.lines.count) lines: \(r.stderr)")
        #expect(!r.stderr.contains("may hold more"))
    }
}
