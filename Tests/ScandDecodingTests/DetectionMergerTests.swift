import Testing
@testable import ScandCore
@testable import ScandDecoding

@Suite struct DetectionMergerTests {
    func linear(_ text: String, x: Double, y: Double, lines: Int, format: BarcodeFormat = .ean13) -> Detection {
        Detection(
            format: format, text: text, bytes: Array(text.utf8),
            corners: Quadrilateral([Point(x, y), Point(x + 200, y), Point(x + 200, y + 40), Point(x, y + 40)]),
            lineCount: lines)
    }

    @Test func samePayloadInSamePlaceIsOneSymbol() {
        let a = linear("4006381333931", x: 0, y: 0, lines: 3)
        let b = linear("4006381333931", x: 2, y: 1, lines: 9)
        let merged = DetectionMerger().merge([a, b])
        #expect(merged.count == 1)
        #expect(merged[0].lineCount == 9)
    }

    @Test func aCodeReadWithAndWithoutItsAddOnIsOneSymbolWithIt() {
        let plain = linear("9780306406157", x: 0, y: 0, lines: 9)
        let withAddOn = linear("978030640615751299", x: 2, y: 1, lines: 3)
        #expect(withAddOn.addOn == "51299" && plain.addOn == nil)
        #expect(DetectionMerger().merge([plain, withAddOn]) == [withAddOn])
        #expect(DetectionMerger().merge([withAddOn, plain]) == [withAddOn])
        // A QR code's digits are no add-on.
        #expect(linear("978030640615751299", x: 0, y: 0, lines: 0, format: .qrCode).addOn == nil)
    }

    @Test func identicalCodesInDifferentPlacesStayTwo() {
        let merged = DetectionMerger().merge([linear("1", x: 0, y: 0, lines: 3), linear("1", x: 400, y: 0, lines: 3)])
        #expect(merged.count == 2)
    }

    @Test func disagreeingReadsOfOneCodeAreDroppedUnlessOneDominates() {
        let right = linear("5030159003930", x: 0, y: 0, lines: 10)
        let wrong = linear("7034759003930", x: 3, y: 5, lines: 5)
        #expect(DetectionMerger().merge([right, wrong]) == [right])
        let close = linear("7034759003930", x: 3, y: 5, lines: 8)
        #expect(DetectionMerger().merge([right, close]).isEmpty)
    }

    @Test func stackedDifferentCodesDoNotConflict() {
        let top = linear("A", x: 0, y: 0, lines: 4, format: .code128)
        let below = linear("B", x: 0, y: 60, lines: 4, format: .code128)
        #expect(DetectionMerger().merge([top, below]).count == 2)
    }

    @Test func scanLinesThatLeftASkewedSymbolAreDropped() {
        // Measured on a generated ITF-14 turned by 5°: zxing 1.4 returns all three.
        func read(_ text: String, _ q: [(Double, Double)], lines: Int) -> Detection {
            Detection(format: .itf, text: text, bytes: Array(text.utf8), corners: Quadrilateral(q.map { Point($0.0, $0.1) }), lineCount: lines)
        }
        let whole = read("00123456789012", [(196, 387), (738, 387), (725, 534), (183, 534)], lines: 148)
        let top = read("001234", [(199, 361), (449, 361), (451, 362), (199, 362)], lines: 2)
        let bottom = read("789012", [(470, 559), (722, 559), (722, 560), (472, 560)], lines: 2)
        #expect(DetectionMerger().merge([top, whole, bottom]) == [whole])
        // A different code stacked below, or a piece far away, is no fragment.
        let label = read("001234", [(199, 700), (449, 700), (451, 760), (199, 760)], lines: 2)
        #expect(DetectionMerger().merge([whole, label]).count == 2)
    }

    @Test func matrixCodesAreNotSecondGuessed() {
        let q = Quadrilateral([Point(0, 0), Point(100, 0), Point(100, 100), Point(0, 100)])
        let a = Detection(format: .qrCode, text: "a", bytes: [97], corners: q)
        let b = Detection(format: .dataMatrix, text: "b", bytes: [98], corners: q)
        #expect(DetectionMerger().merge([a, b]).count == 2)
    }
}

/// Issue 30, 2: the merger counts the independent reads behind each linear symbol it keeps.
@Suite struct DetectionMergerAgreementTests {
    /// A read on the lines between rows `rows`, its bars from x 100 to 300.
    func read(_ text: String, rows: ClosedRange<Double>, lines: Int = 3, format: BarcodeFormat = .ean8) -> Detection {
        Detection(
            format: format, text: text, bytes: Array(text.utf8),
            corners: Quadrilateral([
                Point(100, rows.lowerBound), Point(300, rows.lowerBound), Point(300, rows.upperBound), Point(100, rows.upperBound)
            ]),
            lineCount: lines)
    }

    @Test func readsOnLinesApartAreIndependentAndTheSameLinesAreNot() {
        // Two bands' reads 60 px apart, within half the code's length: one symbol, two opinions.
        let bands = DetectionMerger().merge([read("96385074", rows: 400...406), read("96385074", rows: 460...466)])
        #expect(bands.count == 1 && bands[0].agreeingReads == 2)
        // A crop read over the same lines, and the same pass's read given twice: one opinion.
        let same = DetectionMerger().merge([read("96385074", rows: 400...406), read("96385074", rows: 401...405), read("96385074", rows: 400...406)])
        #expect(same.count == 1 && same[0].agreeingReads == 1)
        // Three groups of lines, a read of another payload between them (dropped in disagreement or not) adds none.
        let three = DetectionMerger().merge([
            read("96385074", rows: 400...406), read("96385074", rows: 430...436), read("96385074", rows: 460...466),
            read("96385081", rows: 445...447, lines: 2)
        ])
        #expect(three.first { $0.text == "96385074" }?.agreeingReads == 3)
        // Matrix symbols are not counted.
        let qr = Detection(format: .qrCode, text: "a", bytes: [0x61], corners: Quadrilateral([Point(0, 0), Point(9, 0), Point(9, 9), Point(0, 9)]))
        #expect(DetectionMerger().merge([qr, qr]).map(\.agreeingReads) == [1])
    }
}
