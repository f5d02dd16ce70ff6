import Testing
@testable import ScandCore

@Suite struct BarcodeFormatTests {
    @Test func namesRoundTrip() {
        for f in BarcodeFormat.allCases {
            #expect(BarcodeFormat(name: f.name) == f)
        }
    }

    @Test func acceptsCommonSpellings() {
        #expect(BarcodeFormat(name: "ean13") == .ean13)
        #expect(BarcodeFormat(name: "EAN_13") == .ean13)
        #expect(BarcodeFormat(name: "qr") == .qrCode)
        #expect(BarcodeFormat(name: "QR_CODE") == .qrCode)
        #expect(BarcodeFormat(name: "rss14") == .dataBar)
        #expect(BarcodeFormat(name: "upca") == .upcA)
        #expect(BarcodeFormat(name: "nonsense") == nil)
    }

    @Test func parsesListsAndGroups() throws {
        #expect(try BarcodeFormats.parse("qr, ean13") == BarcodeFormats([.qrCode, .ean13]))
        #expect(try BarcodeFormats.parse("all") == .all)
        #expect(try BarcodeFormats.parse("linear") == .linear)
        #expect(try BarcodeFormats.parse("2d,code128") == BarcodeFormats.matrix.union(BarcodeFormats(.code128)))
        #expect(BarcodeFormats.linear.intersection(.matrix).isEmpty)
        #expect(BarcodeFormats.all.members.count == 21)
        #expect(try BarcodeFormats.parse("rmqr,databar-limited") == BarcodeFormats([.rmqrCode, .dataBarLimited]))
    }

    @Test func rejectsUnknownNamesWithTheName() {
        #expect(throws: FormatListError(item: "bogus")) { try BarcodeFormats.parse("qr,bogus") }
        #expect(throws: FormatListError.self) { try BarcodeFormats.parse("") }
    }

    @Test func rawValuesAreTheShimsFormatBits() {
        // The decoder passes the set straight to the shim as its szx_format bits.
        #expect(BarcodeFormat.aztec.rawValue == 1 << 0)
        #expect(BarcodeFormat.qrCode.rawValue == 1 << 13)
        #expect(BarcodeFormat.microQRCode.rawValue == 1 << 16)
        #expect(BarcodeFormat.dataBarExpandedStacked.rawValue == 1 << 20)
        #expect(BarcodeFormats.all.rawValue == (1 << 21) - 1)
    }
}
