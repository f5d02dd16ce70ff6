import ScandCore

/// Parses GS1 element strings in both renderings scand gives: raw (`0109501101530003172501011` +
/// GS between variable-length fields) and human-readable (`(01)09501101530003(17)250101(10)AB12`).
/// Every element must be in the AI table, of the right length and character set, with valid check
/// digits and dates; one bad element rejects the whole string.
enum GS1Parser {
    /// ISO/IEC 15424 identifiers of the GS1 modes: Code 128 with FNC1 first, DataBar, GS1 DataMatrix
    /// (with and without ECI), GS1 QR (with and without ECI), GS1 DotCode.
    static let symbologies: Set<String> = ["]C1", "]e0", "]d2", "]d5", "]Q3", "]Q4", "]J1"]

    /// The detection claims GS1 content.
    static func claims(
        format: BarcodeFormat, contentType: Detection.ContentType, symbologyIdentifier: String,
        text: ArraySlice<UInt8>
    ) -> Bool {
        if contentType == .gs1 || format.isDataBar { return true }
        if symbologies.contains(symbologyIdentifier) { return true }
        return text.count >= 3 && symbologies.contains(PayloadBytes.string(text.prefix(3)))
    }

    static func parse(_ text: ArraySlice<UInt8>, format: BarcodeFormat) -> Payload.GS1? {
        var s = PayloadBytes.trimmed(text)
        // A symbology identifier some scanners prepend, then a leading FNC1 rendered as GS.
        if s.count >= 3, s.first == 0x5D, PayloadBytes.isAlpha(s[s.startIndex + 1]), PayloadBytes.isDigit(s[s.startIndex + 2]) {
            s = s.dropFirst(3)
        }
        while s.first == PayloadBytes.gs { s = s.dropFirst() }
        // DataBar, Limited and Stacked are spelled as the bare 14-digit GTIN (zxing-cpp 1.4's spelling).
        if format.isDataBar, s.count == 14, PayloadBytes.allDigits(s) { s = (Array("01".utf8) + s)[...] }
        guard !s.isEmpty else { return nil }
        let elements = s.first == 0x28 ? parseHRI(s) : parseRaw(s)
        guard let elements, !elements.isEmpty else { return nil }
        // The same AI twice must carry the same value (GS1 General Specifications 4.14).
        var seen: [String: String] = [:]
        for e in elements {
            if let v = seen[e.ai], v != e.value { return nil }
            seen[e.ai] = e.value
        }
        return Payload.GS1(elements: elements)
    }

    /// AIs followed by values; GS ends a variable-length value (and is tolerated after a fixed one).
    static func parseRaw(_ s: ArraySlice<UInt8>) -> [Payload.GS1Element]? {
        var elements: [Payload.GS1Element] = []
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == PayloadBytes.gs { i += 1; continue }
            guard let (ai, spec) = identifier(s, at: i) else { return nil }
            i += ai.utf8.count
            var end = i
            if spec.isFixedLength {
                end = i + spec.maxLength
                guard end <= s.endIndex else { return nil }
            } else {
                // Stop one past the maximum: that is already invalid, and the scan stays linear.
                while end < s.endIndex, s[end] != PayloadBytes.gs, end - i <= spec.maxLength { end += 1 }
            }
            guard let element = element(ai, spec, s[i..<end]) else { return nil }
            elements.append(element)
            i = end
        }
        return elements
    }

    /// `(AI)value(AI)value…`. A variable-length value ends at the next `(` that opens a known AI, so a
    /// value may itself contain parentheses (CSET 82 allows them).
    static func parseHRI(_ s: ArraySlice<UInt8>) -> [Payload.GS1Element]? {
        var elements: [Payload.GS1Element] = []
        var i = s.startIndex
        while i < s.endIndex {
            guard let (ai, spec, valueStart) = parenthesized(s, at: i) else { return nil }
            var end = valueStart
            if spec.isFixedLength {
                end = valueStart + spec.maxLength
                guard end <= s.endIndex, end == s.endIndex || s[end] == 0x28 else { return nil }
            } else {
                while end < s.endIndex, end - valueStart <= spec.maxLength {
                    if s[end] == 0x28, parenthesized(s, at: end) != nil { break }
                    end += 1
                }
            }
            guard let element = element(ai, spec, s[valueStart..<end]) else { return nil }
            elements.append(element)
            i = end
        }
        return elements
    }

    /// The AI at `i`: AIs are prefix-free, so the first 2-, 3- or 4-digit prefix in the table is it.
    static func identifier(_ s: ArraySlice<UInt8>, at i: Int) -> (String, GS1AISpec)? {
        for length in 2...4 {
            guard i + length <= s.endIndex, PayloadBytes.isDigit(s[i + length - 1]), PayloadBytes.allDigits(s[i..<(i + length)])
            else { return nil }
            let ai = PayloadBytes.string(s[i..<(i + length)])
            if let spec = GS1ApplicationIdentifiers.spec(ai) { return (ai, spec) }
        }
        return nil
    }

    /// `(AI)` at `i`: returns the AI, its spec and where its value starts.
    static func parenthesized(_ s: ArraySlice<UInt8>, at i: Int) -> (String, GS1AISpec, Int)? {
        guard i < s.endIndex, s[i] == 0x28 else { return nil }
        var j = i + 1
        while j < s.endIndex, j - i <= 5, PayloadBytes.isDigit(s[j]) { j += 1 }
        let length = j - i - 1
        guard (2...4).contains(length), j < s.endIndex, s[j] == 0x29 else { return nil }
        let ai = PayloadBytes.string(s[(i + 1)..<j])
        guard let spec = GS1ApplicationIdentifiers.spec(ai) else { return nil }
        return (ai, spec, j + 1)
    }

    static func element(_ ai: String, _ spec: GS1AISpec, _ value: ArraySlice<UInt8>) -> Payload.GS1Element? {
        guard isValid(value, spec) else { return nil }
        return Payload.GS1Element(ai: ai, title: spec.title, value: PayloadBytes.string(value))
    }

    /// Length, character set, check digits and dates of each component.
    static func isValid(_ v: ArraySlice<UInt8>, _ spec: GS1AISpec) -> Bool {
        guard v.count >= spec.minLength, v.count <= spec.maxLength else { return false }
        var i = v.startIndex
        for (k, c) in spec.components.enumerated() {
            let length = k == spec.components.count - 1 ? v.endIndex - i : c.maxLength
            guard length >= c.minLength, length <= c.maxLength, i + length <= v.endIndex else { return false }
            let part = v[i..<(i + length)]
            guard part.allSatisfy({ inCharset($0, c.charset) }) else { return false }
            if !part.isEmpty {
                switch c.check {
                case .none: break
                case .mod10: guard GTIN.isValid(part) else { return false }
                case .yymmdd: guard GS1Dates.isValidYYMMDD(part, allowZeroDay: false) else { return false }
                case .yymmd0: guard GS1Dates.isValidYYMMDD(part, allowZeroDay: true) else { return false }
                case .dateTime: guard GS1Dates.isValidDateTime(part) else { return false }
                }
            }
            i += length
        }
        return i == v.endIndex
    }

    static func inCharset(_ b: UInt8, _ charset: GS1Component.Charset) -> Bool {
        switch charset {
        case .numeric: PayloadBytes.isDigit(b)
        case .cset39: PayloadBytes.isUpper(b) || PayloadBytes.isDigit(b) || b == 0x23 || b == 0x2D || b == 0x2F
        case .cset82:
            // ! " % & ' ( ) * + , - . / 0-9 : ; < = > ? A-Z _ a-z
            b == 0x21 || b == 0x22 || (0x25...0x3F).contains(b) || PayloadBytes.isUpper(b) || b == 0x5F
                || (0x61...0x7A).contains(b)
        }
    }
}
