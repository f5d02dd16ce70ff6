import ScandCore

/// The module pattern of an EAN/UPC main number (ISO/IEC 15420): which of its modules are bars, and which
/// modules each symbol character fills, with the patterns that character could have had instead. What
/// `BarPatternCheck` holds a read against.
struct EANPattern: Equatable {
    /// One module a value, bars true, from the first bar of the start guard to the last module of the end guard.
    var modules: [Bool]
    /// Each symbol character: its first module and every pattern a character could have there (the read's own
    /// included, at `ownIndex`).
    var characters: [(start: Int, choices: [[Bool]], ownIndex: Int)]

    static func == (a: EANPattern, b: EANPattern) -> Bool { a.modules == b.modules }

    /// Set A (odd parity, left half), as 7 modules.
    static let a: [[Bool]] = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
        .map(bits)
    /// Set C (right half): set A's complement.
    static let c: [[Bool]] = a.map { $0.map { !$0 } }
    /// Set B (even parity, left half): set C reversed.
    static let b: [[Bool]] = c.map { $0.reversed() }
    /// The left half's parities (true: set B) that encode an EAN-13's first digit.
    static let ean13Parity: [[Bool]] = ["000000", "001011", "001101", "001110", "010011", "011001", "011100", "010101", "010110", "011010"].map(bits)
    /// UPC-E's parities (true: even, set B) by check digit, number system 0; number system 1 has them inverted.
    static let upcEParity: [[Bool]] = ["111000", "110100", "110010", "110001", "101100", "100110", "100011", "101010", "101001", "100101"].map(bits)

    /// EAN-5's parities (true: set B) by its checksum, and EAN-2's by its value mod 4 (ISO/IEC 15420, annex).
    static let ean5Parity: [[Bool]] = ["11000", "10100", "10010", "10001", "01100", "00110", "00011", "01010", "01001", "00101"].map(bits)
    static let ean2Parity: [[Bool]] = ["00", "01", "10", "11"].map(bits)

    static func bits(_ s: String) -> [Bool] { s.map { $0 == "1" } }

    private init(modules: [Bool], characters: [(start: Int, choices: [[Bool]], ownIndex: Int)]) {
        self.modules = modules
        self.characters = characters
    }

    /// The pattern of `d`'s EAN-2 or EAN-5 add-on: its start guard (1011), its characters of sets A and B by the
    /// parity its value or checksum gives, a separator (01) between them. nil without an add-on.
    static func addOn(_ d: Detection) -> EANPattern? {
        guard let text = d.addOn else { return nil }
        let digits = text.utf8.map { Int($0) - 0x30 }
        let parity: [Bool]
        switch digits.count {
        case 2: parity = ean2Parity[(digits[0] * 10 + digits[1]) % 4]
        case 5:
            let sum = 3 * (digits[0] + digits[2] + digits[4]) + 9 * (digits[1] + digits[3])
            parity = ean5Parity[sum % 10]
        default: return nil
        }
        var modules = bits("1011"), characters: [(start: Int, choices: [[Bool]], ownIndex: Int)] = []
        for (k, digit) in digits.enumerated() {
            if k > 0 { modules += bits("01") }
            characters.append((modules.count, a + b, digit + (parity[k] ? 10 : 0)))
            modules += parity[k] ? b[digit] : a[digit]
        }
        return EANPattern(modules: modules, characters: characters)
    }

    /// The pattern of `d`'s main number, nil for other formats or a number that is not all digits.
    init?(_ d: Detection) {
        let digits = d.mainBytes.map { Int($0) - 0x30 }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        var modules: [Bool] = [], characters: [(Int, [[Bool]], Int)] = []
        func guardBars(_ s: String) { modules += Self.bits(s) }
        // A left-half character: its own set's pattern among both sets' twenty.
        func left(_ digit: Int, even: Bool) {
            characters.append((modules.count, Self.a + Self.b, digit + (even ? 10 : 0)))
            modules += even ? Self.b[digit] : Self.a[digit]
        }
        func right(_ digit: Int) {
            characters.append((modules.count, Self.c, digit))
            modules += Self.c[digit]
        }
        switch (d.format, digits.count) {
        case (.ean13, 13), (.upcA, 12):
            let all = d.format == .upcA ? [0] + digits : digits
            let parity = Self.ean13Parity[all[0]]
            guardBars("101")
            for k in 1...6 { left(all[k], even: parity[k - 1]) }
            guardBars("01010")
            for k in 7...12 { right(all[k]) }
            guardBars("101")
        case (.ean8, 8):
            guardBars("101")
            for k in 0...3 { left(digits[k], even: false) }
            guardBars("01010")
            for k in 4...7 { right(digits[k]) }
            guardBars("101")
        case (.upcE, 8) where digits[0] <= 1:
            let parity = Self.upcEParity[digits[7]].map { digits[0] == 0 ? $0 : !$0 }
            guardBars("101")
            for k in 1...6 { left(digits[k], even: parity[k - 1]) }
            guardBars("010101")
        default:
            return nil
        }
        self.modules = modules
        self.characters = characters.map { (start: $0.0, choices: $0.1, ownIndex: $0.2) }
    }
}
