import Testing
import ScandCore
import ScandTestSupport
@testable import ScandBarPattern
@testable import ScandDecoding

/// A UPC-E read inside a longer code's bars (zxing-cpp reads an EAN-13's left half as a UPC-E) is no code of
/// its own; a real one is, and an EAN-8 is not checked.
@Suite struct QuietZoneTests {
    static func read(_ format: BarcodeFormat, _ text: String, module: Int) throws -> (LumaImage, Detection) {
        let page = Scene.page(width: 640, height: 360, [(Scene.symbol(format, text, module: module), x: 320, y: 180, degrees: 0)])
        let report = ZXingDecoder(isolated: false).decode(page, passes: [.zxingDefaults(width: 640, height: 360)])
        return (page, try #require(report.detections.first { $0.format == format }))
    }

    @Test(arguments: [(BarcodeFormat.upcE, "01234565"), (.ean8, "96385074")])
    func aCodeOfItsOwnIsClear(_ format: BarcodeFormat, _ text: String) throws {
        for module in [2, 3, 4] {
            let (page, d) = try Self.read(format, text, module: module)
            #expect(QuietZone.isClear(d, width: page.width, height: page.height) { page[$0, $1] }, "\(format) at \(module) px")
        }
    }

    /// An EAN-13 swiped in from the right edge shows its left half first: a UPC-E whose quiet zone is past the
    /// edge is not proven a code of its own (the till bench's item #91).
    @Test func aUPCEWhoseQuietZoneIsPastTheEdgeIsNot() throws {
        let (page, d) = try Self.read(.upcE, "01234565", module: 3)
        let right = Int(max(d.corners.topRight.x, d.corners.bottomRight.x)) + 3
        var cut = LumaImage(width: right, height: page.height, fill: 0)
        for y in 0..<page.height { for x in 0..<right { cut[x, y] = page[x, y] } }
        #expect(!QuietZone.isClear(d, width: cut.width, height: cut.height) { cut[$0, $1] })
        #expect(QuietZone.isClear(d, width: page.width, height: page.height) { page[$0, $1] }, "with its quiet zone in view")
    }

    @Test func anEAN13sLeftHalfReadAsAUPCEIsNot() throws {
        for module in [2, 3, 4] {
            let (page, ean) = try Self.read(.ean13, "6429877349298", module: module)
            // The UPC-E zxing finds there: from the start guard to the centre guard, 51 of the EAN-13's 95 modules.
            var upcE = ean
            upcE.format = .upcE
            let q = ean.corners, f = 51.0 / 95
            upcE.corners = Quadrilateral(
                topLeft: q.topLeft, topRight: q.topLeft + (q.topRight - q.topLeft) * f,
                bottomRight: q.bottomLeft + (q.bottomRight - q.bottomLeft) * f, bottomLeft: q.bottomLeft)
            #expect(!QuietZone.isClear(upcE, width: page.width, height: page.height) { page[$0, $1] }, "at \(module) px")
            #expect(QuietZone.isClear(ean, width: page.width, height: page.height) { page[$0, $1] }, "an EAN-13 is not checked")
        }
    }
}
