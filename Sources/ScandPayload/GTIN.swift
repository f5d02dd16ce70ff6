import ScandCore

/// The GS1 mod-10 check digit shared by GTIN-8/12/13/14, SSCC, GLN, GSIN, GSRN…: weights 3 and 1
/// alternate from the rightmost data digit.
enum GTIN {
    /// The check digit (0…9) for `digits` (data only), or nil if they are not all digits.
    static func checkDigit(_ digits: ArraySlice<UInt8>) -> Int? {
        var sum = 0
        var weight = 3
        var i = digits.endIndex
        while i > digits.startIndex {
            i -= 1
            let b = digits[i]
            guard PayloadBytes.isDigit(b) else { return nil }
            sum = (sum + Int(b - 0x30) * weight) % 10  // kept small: no overflow for any length
            weight = 4 - weight
        }
        return (10 - sum) % 10
    }

    /// The last digit of `digits` is the check digit of the others.
    static func isValid(_ digits: ArraySlice<UInt8>) -> Bool {
        guard digits.count >= 2, let last = digits.last, PayloadBytes.isDigit(last),
            let expected = checkDigit(digits.dropLast())
        else { return false }
        return Int(last - 0x30) == expected
    }

    /// UPC-E (8 digits: number system 0/1, six data digits, check) expanded to its UPC-A (GTIN-12).
    static func expandUPCE(_ e: ArraySlice<UInt8>) -> [UInt8]? {
        guard e.count == 8, PayloadBytes.allDigits(e), e.first == 0x30 || e.first == 0x31 else { return nil }
        let d = Array(e)
        let z: [UInt8] = Array("0000".utf8)
        let body: [UInt8]
        switch d[6] {
        case 0x30...0x32: body = [d[1], d[2], d[6]] + z + [d[3], d[4], d[5]]
        case 0x33: body = [d[1], d[2], d[3]] + z + [0x30, d[4], d[5]]
        case 0x34: body = [d[1], d[2], d[3], d[4]] + z + [0x30, d[5]]
        default: body = [d[1], d[2], d[3], d[4], d[5]] + z + [d[6]]
        }
        return [d[0]] + body + [d[7]]
    }
}
