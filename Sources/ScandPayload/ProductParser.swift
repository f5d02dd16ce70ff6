import ScandCore

extension Payload {
    /// A retail product number from an EAN/UPC symbol.
    public struct Product: Sendable, Equatable {
        /// GTIN-8, GTIN-12 or GTIN-13 as printed; a UPC-E is given as its expanded GTIN-12.
        public var gtin: String
        public var format: BarcodeFormat
        /// The EAN-2/EAN-5 add-on (issue number, price), when one was read.
        public var addOn: String?
    }

    /// A book: an EAN-13 in the Bookland ranges 978 and 979-1…979-9.
    public struct ISBN: Sendable, Equatable {
        public var isbn13: String
        /// Only 978 numbers have an ISBN-10.
        public var isbn10: String?
        /// The EAN-5 add-on (often a price), when one was read.
        public var addOn: String?
    }
}

/// EAN-13/EAN-8/UPC-A/UPC-E with a valid check digit. A read EAN-2/EAN-5 add-on follows the main number,
/// straight after it as zxing-cpp 3 gives it ("978123456789751299", the main number's length tells where
/// it starts) or after a space as zxing-cpp 2 did. 979-0 is the ISMN (printed music), not a book: it is a
/// product.
enum ProductParser {
    static func parse(_ s: ArraySlice<UInt8>, format: BarcodeFormat) -> Payload? {
        var main = s, addOn: String?
        if let space = s.firstIndex(of: 0x20) {
            main = s[s.startIndex..<space]
            addOn = PayloadBytes.string(s[(space + 1)...])
        } else if let length = format.mainNumberLength, [length + 2, length + 5].contains(s.count) {
            main = s.prefix(length)
            addOn = PayloadBytes.string(s.dropFirst(length))
        }
        if let addOn, ![2, 5].contains(addOn.utf8.count) || !PayloadBytes.allDigits(Array(addOn.utf8)[...]) { return nil }
        guard PayloadBytes.allDigits(main) else { return nil }
        var digits = Array(main)
        switch format {
        case .ean13: guard digits.count == 13 else { return nil }
        case .ean8: guard digits.count == 8 else { return nil }
        case .upcA:
            // Some decoders report UPC-A as its EAN-13 form with a leading zero.
            if digits.count == 13, digits[0] == 0x30 { digits.removeFirst() }
            guard digits.count == 12 else { return nil }
        case .upcE:
            guard let expanded = GTIN.expandUPCE(digits[...]) else { return nil }
            digits = expanded
        default: return nil
        }
        guard GTIN.isValid(digits[...]) else { return nil }
        let gtin = PayloadBytes.string(digits)
        if format == .ean13, let isbn = isbn(digits, addOn: addOn) { return .isbn(isbn) }
        return .product(Payload.Product(gtin: gtin, format: format, addOn: addOn))
    }

    static func isbn(_ d: [UInt8], addOn: String?) -> Payload.ISBN? {
        let prefix = PayloadBytes.string(d[0..<3])
        guard prefix == "978" || (prefix == "979" && d[3] != 0x30) else { return nil }
        var isbn10: String?
        if prefix == "978" {
            // ISBN-10: the nine digits after 978, then a mod-11 check (weights 10…2; 10 is written X).
            var sum = 0
            for (k, b) in d[3..<12].enumerated() { sum += Int(b - 0x30) * (10 - k) }
            let check = (11 - sum % 11) % 11
            isbn10 = PayloadBytes.string(d[3..<12]) + (check == 10 ? "X" : String(check))
        }
        return Payload.ISBN(isbn13: PayloadBytes.string(d), isbn10: isbn10, addOn: addOn)
    }
}
