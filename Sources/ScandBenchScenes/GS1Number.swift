/// The GS1 numbers generated items and photos carry.
package enum GS1Number {
    /// GS1 mod-10 check digit appended.
    package static func withCheckDigit(_ body: String) -> String {
        let digits = body.compactMap { $0.wholeNumberValue }
        var sum = 0
        for (i, d) in digits.reversed().enumerated() { sum += d * (i % 2 == 0 ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }

    /// UPC-E (8 digits with number system and check digit) → UPC-A (12 digits).
    package static func expandUPCE(_ e: String) -> String? {
        let d = Array(e)
        guard d.count == 8, d.allSatisfy(\.isNumber), d[0] == "0" || d[0] == "1" else { return nil }
        let m = String(d[1...6]), c = Array(m), check = String(d[7]), ns = String(d[0])
        let body: String
        switch c[5] {
        case "0", "1", "2": body = "\(c[0])\(c[1])\(c[5])0000\(c[2])\(c[3])\(c[4])"
        case "3": body = "\(c[0])\(c[1])\(c[2])00000\(c[3])\(c[4])"
        case "4": body = "\(c[0])\(c[1])\(c[2])\(c[3])00000\(c[4])"
        default: body = "\(c[0])\(c[1])\(c[2])\(c[3])\(c[4])0000\(c[5])"
        }
        return ns + body + check
    }
}
