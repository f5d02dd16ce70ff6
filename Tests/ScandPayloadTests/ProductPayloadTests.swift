import Testing
import ScandCore
@testable import ScandPayload

@Suite struct ProductPayloadTests {
    @Test func retailCodes() {
        #expect(payloadOf("4006381333931", format: .ean13) == .product(.init(gtin: "4006381333931", format: .ean13)))
        #expect(payloadOf("96385074", format: .ean8) == .product(.init(gtin: "96385074", format: .ean8)))
        #expect(payloadOf("036000291452", format: .upcA) == .product(.init(gtin: "036000291452", format: .upcA)))
        #expect(payloadOf("0036000291452", format: .upcA) == .product(.init(gtin: "036000291452", format: .upcA)))
        // UPC-E 0425261(4) is UPC-A 042100005264.
        #expect(payloadOf("04252614", format: .upcE) == .product(.init(gtin: "042100005264", format: .upcE)))
        #expect(payloadOf("4006381333931 12", format: .ean13) == .product(.init(gtin: "4006381333931", format: .ean13, addOn: "12")))
        // zxing-cpp 3 puts the add-on straight after the main number; its length tells where it starts.
        #expect(payloadOf("400638133393112", format: .ean13) == .product(.init(gtin: "4006381333931", format: .ean13, addOn: "12")))
        #expect(payloadOf("03600029145212345", format: .upcA) == .product(.init(gtin: "036000291452", format: .upcA, addOn: "12345")))
        #expect(payloadOf("0425261412", format: .upcE) == .product(.init(gtin: "042100005264", format: .upcE, addOn: "12")))
        // Neither a 2- nor a 5-digit add-on: not a product.
        #expect(payloadOf("4006381333931123", format: .ean13) != .product(.init(gtin: "4006381333931", format: .ean13, addOn: "123")))
    }

    @Test func books() {
        #expect(payloadOf("9780306406157", format: .ean13) == .isbn(.init(isbn13: "9780306406157", isbn10: "0306406152")))
        #expect(
            payloadOf("9780306406157 51299", format: .ean13)
                == .isbn(.init(isbn13: "9780306406157", isbn10: "0306406152", addOn: "51299")))
        #expect(
            payloadOf("978030640615751299", format: .ean13)
                == .isbn(.init(isbn13: "9780306406157", isbn10: "0306406152", addOn: "51299")))
        // An ISBN-10 whose check is X.
        #expect(payloadOf("9780804429573", format: .ean13) == .isbn(.init(isbn13: "9780804429573", isbn10: "080442957X")))
        // 979-1…9: ISBN-13 only.
        #expect(payloadOf("9791032305690", format: .ean13) == .isbn(.init(isbn13: "9791032305690")))
        // 979-0 is an ISMN (sheet music): a product, not a book.
        #expect(payloadOf("9790060115615", format: .ean13) == .product(.init(gtin: "9790060115615", format: .ean13)))
    }

    @Test func badCheckDigitsAndShapesAreText() {
        let cases: [(String, BarcodeFormat)] = [
            ("4006381333932", .ean13), ("9780306406158", .ean13), ("96385075", .ean8), ("036000291453", .upcA),
            ("04252615", .upcE), ("24252614", .upcE), ("400638133393", .ean13), ("40063813339311", .ean13),
            ("4006381333931 123", .ean13), ("4006381333931  12", .ean13), ("400638133393X", .ean13), ("", .ean13),
            ("1036000291452", .upcA)
        ]
        for (text, format) in cases {
            #expect(payloadOf(text, format: format) == .text(text), "\(text)")
        }
        // A product-looking number in a QR code is just text.
        #expect(payloadOf("4006381333931") == .text("4006381333931"))
    }
}
